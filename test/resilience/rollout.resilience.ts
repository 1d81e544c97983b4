import { createHmac, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { signOperatorToken } from '@lib/auth/operator-token';
import { signUserAccessToken } from '@lib/auth/user-token';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { issuePartnerCredential } from '@scripts/database-tasks';
import { demoBankEventRequest } from '../support/bank-events';
import { HttpRecorder } from '../support/http-recorder';
import { ReconnectingSseClient } from '../support/sse-client';
import { adminQuery } from '../support/test-database';
import { ProcessStack, ProcessTestDatabase, type Tier, sleep } from './processes';

/**
 * A rolling restart of every tier under a steady mixed load (issue 47 §4, docs/decisions/0203-compose-and-image-proof.md):
 * two copies of every process (REST, gateway, the four subgraphs with their job workers) behind balancers that route
 * as a Kubernetes Service does (readiness polled every second, a refused connection retried on another copy; see
 * RoundRobinBalancer). Every tier rolls at once, as when a release changes every Deployment's image; within a tier
 * one copy at a time gets SIGTERM, exits, starts again and is seen ready by the balancer before the next. Meanwhile
 * clients send bank lookups and signed payment events, partner lists, app and POS calls, operator queries at the
 * gateway, create and pay QRIS payments, and hold open live payment streams. Every answer must be a 2xx (a documented
 * 429 aside), every event stored once, every stream must reconnect with Last-Event-ID and see every payment, and the
 * merchant's device must get one push per payment from the job workers that were stopped in turn.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The balancers' readiness poll; the processes' drain delay must exceed it (docs/operations.md, Kubernetes). */
const READINESS_POLL_MS = 1000;
const DRAIN_DELAY_MS = 2500;
const STREAMS = 8;
const TIERS: Tier[] = ['merchant', 'outlet', 'transaction', 'catalog', 'gateway', 'rest'];

type Kind = 'lookup' | 'event' | 'partner' | 'app' | 'pos' | 'gateway' | 'payment' | 'pay';
interface Sent {
  kind: Kind;
  status: number;
  sentAt: number;
  ms: number;
  body: string;
}

describe('a rolling restart of every tier under load', () => {
  let db: ProcessTestDatabase;
  let config: Config;
  let stack: ProcessStack;
  /** The push provider: the merchant copies' job workers send a push for every paid payment (0205-job-queue.md). */
  let push: HttpRecorder;
  const agent = new Agent({ connections: 64 });
  /** The load's loops run while this holds; the streams stop in afterAll too (a failed run must not leave them open). */
  let running = true;
  const streams: ReconnectingSseClient[] = [];

  beforeAll(async () => {
    const began = Date.now();
    // A server of its own (200 connections): two copies of every tier, five operations threads in each REST copy and a
    // third copy of a tier while it rolls must not share the machine's server with the suite's other file.
    db = await ProcessTestDatabase.create('qris_rollout', { embedded: true });
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.adminUrl });
    push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/rollout/messages/${randomUUID()}` } })).start();
    stack = await ProcessStack.start(db.adminUrl, {
      copies: 2,
      readinessPollMs: READINESS_POLL_MS,
      env: {
        REDIS_URL,
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        JOBS_POLL_INTERVAL_MS: '200',
        DB_POOL_MAX: '6',
        DB_POOL_IDLE_MS: '5000',
        PUSH_PROVIDER_URL: `${push.url}/v1/send`,
        PUSH_PROVIDER_TOKEN: 'push-token',
      },
    });
    process.stdout.write(
      `rolling restart: database and stack of ${stack.all().length} processes ready after ${((Date.now() - began) / 1000).toFixed(0)} s\n`,
    );
  }, 300_000);

  afterAll(async () => {
    running = false;
    await Promise.all(streams.map((s) => s.stop()));
    await stack?.stop();
    await push?.stop();
    await agent.close();
    await db?.drop();
  });

  it('answers no request with a failure, stores every event once, and every live stream sees every payment', async () => {
    const sent: Sent[] = [];
    const call = async (kind: Kind, method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string) => {
      const sentAt = Date.now();
      let answer: Sent;
      try {
        const res = await request(url, { method, headers, body, dispatcher: agent, headersTimeout: 30_000, bodyTimeout: 30_000 });
        answer = { kind, status: res.statusCode, sentAt, ms: Date.now() - sentAt, body: await res.body.text() };
      } catch (error) {
        answer = { kind, status: 0, sentAt, ms: Date.now() - sentAt, body: (error as Error).message };
      }
      sent.push(answer);
      return answer;
    };
    const rest = stack.restOrigin;

    // Credentials: the demo owner's app session, a partner credential with room for the load, an operator token.
    const sessionId = uuidv7();
    await adminQuery(
      db.adminUrl,
      `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at)
       values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
      [sessionId, DEMO.owner.userId],
    );
    const { token: userToken } = await signUserAccessToken({ userId: DEMO.owner.userId, sessionId }, config.secrets.userTokenSecret);
    const app = { authorization: `Bearer ${userToken}` };
    const credential = await issuePartnerCredential(config, db.adminUrl, {
      partnerCode: DEMO.partner.code,
      name: `rollout ${uuidv7()}`,
      contract: 'B',
      mode: 'jwt',
      scopes: ['merchant.read'],
      rateLimitPerMinute: 5000,
    });
    const issued = await call(
      'partner',
      'POST',
      `${rest}/api/partner/v1/auth/token`,
      { 'content-type': 'application/json' },
      JSON.stringify(credential),
    );
    expect(issued.status).toBe(200);
    const partner = { authorization: `Bearer ${(JSON.parse(issued.body) as { access_token: string }).access_token}` };
    const operatorToken = await signOperatorToken({ name: 'rollout', roles: ['admin'], ttlSecs: 600 }, config.operatorTokens);
    const pos = { 'x-internal-api-key': config.secrets.internalApiKey, 'x-merchant-id': DEMO.merchantId };
    const pushToken = `push-rollout-${randomUUID()}`;
    const registered = await call(
      'app',
      'POST',
      `${rest}/auth/push-tokens`,
      { ...app, 'content-type': 'application/json' },
      JSON.stringify({ push_token: pushToken, device_id: `device-${randomUUID()}` }),
    );
    expect(registered.status).toBe(200);

    // The live payment streams of the demo merchant, each reconnecting as a browser's EventSource does.
    streams.push(...Array.from({ length: STREAMS }, () => new ReconnectingSseClient(`${rest}/merchant/payments/events`, app)));
    for (const stream of streams) stream.start();
    for (let waited = 0; streams.some((s) => s.connections === 0) && waited < 10_000; waited += 50) await sleep(50);

    // The load: each loop paced, together ≈ 20 requests a second on two shared cores (under every route's rate limit).
    let eventSeq = 0;
    const eventIds: string[] = [];
    const payments: { id: string; eventId: string }[] = [];
    const loop = (pauseMs: number, body: () => Promise<unknown>) =>
      (async () => {
        while (running) {
          await body();
          await sleep(pauseMs);
        }
      })();
    const nmid = DEMO.otherMerchants[1].outlets[0].nmid;
    const lookupPath = `/api/psp/v1/merchants/by-nmid/${nmid}`;
    const bankEvent = (extra: Record<string, unknown>) => {
      const id = `rollout-${++eventSeq}-${randomUUID().slice(0, 8)}`;
      eventIds.push(id);
      const event = demoBankEventRequest({ external_event_id: id, transaction_code: `TRX-${id}`, ...extra });
      return { id, ...event };
    };
    const gatewayQuery = JSON.stringify({
      query: `{ merchantSearch(query: "${DEMO.merchantCode}", first: 5) { items { merchantCode outlets { nmid } latestTransactions(last: 1) { status } posCategories { id } } } }`,
    });
    const workers = [
      loop(250, () => {
        const timestamp = new Date().toISOString();
        const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${lookupPath}\n${timestamp}\n`).digest('hex');
        return call('lookup', 'GET', `${rest}${lookupPath}`, {
          'x-api-key-id': DEMO.bank.lookupKeyId,
          'x-timestamp': timestamp,
          'x-signature': signature,
        });
      }),
      ...[0, 1].map(() =>
        loop(100, () => {
          // Another merchant's outlet: the demo merchant's streams and device hear only the QRIS payments below.
          const event = bankEvent({ gross_amount: 10_000, nmid });
          return call('event', 'POST', `${rest}/psp/v1/events`, event.headers, event.payload);
        }),
      ),
      loop(300, () => call('partner', 'GET', `${rest}/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`, partner)),
      loop(250, () => call('app', 'GET', `${rest}/auth/profile`, app)),
      loop(250, () => call('pos', 'GET', `${rest}/poslite/sync/pull?entity=products&since=0&limit=20`, pos)),
      loop(300, () =>
        call(
          'gateway',
          'POST',
          `${stack.gatewayOrigin}/graphql`,
          { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
          gatewayQuery,
        ),
      ),
      // A QRIS payment made in the app and paid by the bank, one after another.
      loop(500, async () => {
        const amount = 20_000 + payments.length;
        const created = await call(
          'payment',
          'POST',
          `${rest}/merchant/poslite/payments/qris`,
          { ...app, 'content-type': 'application/json' },
          JSON.stringify({ outlet_id: DEMO.outlets[0].id, amount }),
        );
        if (created.status !== 201) return;
        const payment = JSON.parse(created.body) as { id: string; bill_number: string };
        const event = bankEvent({ gross_amount: amount, reference_number: payment.bill_number });
        const paid = await call('pay', 'POST', `${rest}/psp/v1/events`, event.headers, event.payload);
        if (paid.status === 200) payments.push({ id: payment.id, eventId: event.id });
      }),
    ];

    // The rollout: every tier at once (a release changes every Deployment's image), each one copy at a time.
    await sleep(2000);
    const rolloutStarted = Date.now();
    const restarts: { copy: string; exit: number | null; stoppedMs: number; readyMs: number }[] = [];
    await Promise.all(
      TIERS.map(async (tier) => {
        for (const copy of stack.copies[tier]) {
          const started = Date.now();
          const exited = copy.exitCode();
          copy.send('SIGTERM');
          const exit = await exited;
          const stoppedMs = Date.now() - started;
          await copy.start(180_000); // REST under the load on a shared CI machine: up to ~2 min
          await stack.balancers[tier]!.routable(copy.port, 30_000);
          restarts.push({ copy: copy.name, exit, stoppedMs, readyMs: Date.now() - started });
          process.stdout.write(
            `rolling restart: ${copy.name} exited ${exit} after ${stoppedMs} ms, ready again after ${Date.now() - started} ms\n`,
          );
        }
      }),
    );
    const rolloutMs = Date.now() - rolloutStarted;
    await sleep(2000);
    running = false;
    await Promise.all(workers);

    // Every stream sees every paid payment (the feed reaches them within a poll or a Redis signal).
    const paidIds = (s: ReconnectingSseClient) =>
      s.events.filter((e) => e.event === 'qris_payment.paid').map((e) => (e.data as { qris_payment: { id: string } }).qris_payment.id);
    const seesAll = (s: ReconnectingSseClient) => {
      const seen = new Set(paidIds(s));
      return payments.every((p) => seen.has(p.id));
    };
    for (let waited = 0; !streams.every(seesAll) && waited < 15_000; waited += 100) await sleep(100);
    await Promise.all(streams.map((s) => s.stop()));
    // The owner's device gets one push per paid payment, though every merchant copy's job worker stopped once.
    const pushed = () =>
      push.requests
        .filter((r) => r.json?.message?.token === pushToken)
        .map((r) => (r.json as { message: { data: { qris_payment_id?: string } } }).message.data.qris_payment_id);
    for (let waited = 0; !payments.every((p) => pushed().includes(p.id)) && waited < 15_000; waited += 100) await sleep(100);
    await sleep(1000); // a second delivery would arrive now

    const duringRollout = sent.filter((a) => a.sentAt >= rolloutStarted && a.sentAt <= rolloutStarted + rolloutMs);
    const figures = {
      requests: sent.length,
      byKind: Object.fromEntries([...new Set(sent.map((a) => a.kind))].map((k) => [k, sent.filter((a) => a.kind === k).length])),
      restarts: restarts.length,
      rolloutSecs: rolloutMs / 1000,
      duringRollout: duringRollout.length,
      maxLatencyMsDuringRollout: Math.max(...duringRollout.map((a) => a.ms)),
      p99MsDuringRollout: [...duringRollout.map((a) => a.ms)].sort((a, b) => a - b)[Math.floor(duringRollout.length * 0.99)],
      rateLimited: sent.filter((a) => a.status === 429).length,
      retriedOnRefusal: Object.values(stack.balancers).reduce((n, b) => n + b.retried, 0),
      payments: payments.length,
      pushes: pushed().length,
      streamConnections: streams.map((s) => s.connections),
      stopMs: restarts.map((r) => `${r.copy} ${r.stoppedMs}/${r.readyMs}`),
    };
    process.stdout.write(`rolling restart: ${JSON.stringify(figures)}\n`);

    // 0 failed requests: every answer a 2xx, or a 429 with the documented body; no GraphQL error at the gateway.
    const failed = sent.filter((a) => {
      if (a.status === 429) return !a.body.includes('"code":"rate_limit_exceeded"');
      if (a.status < 200 || a.status > 299) return true;
      return a.kind === 'gateway' && (JSON.parse(a.body) as { errors?: unknown }).errors !== undefined;
    });
    expect(failed.map((a) => ({ ...a, body: a.body.slice(0, 300) }))).toEqual([]);
    expect(Object.fromEntries(Object.entries(stack.balancers).map(([tier, b]) => [tier, b.errors]))).toEqual(
      Object.fromEntries(TIERS.map((tier) => [tier, []])),
    );
    expect(restarts.filter((r) => r.exit !== 0)).toEqual([]);
    expect(restarts).toHaveLength(TIERS.length * 2);
    expect(sent.filter((a) => a.kind === 'event').length).toBeGreaterThan(200);
    expect(payments.length).toBeGreaterThan(10);

    // Every event stored exactly once (all were acknowledged: none failed).
    const rows = await adminQuery<{ external_event_id: string; n: number }>(
      db.adminUrl,
      `select external_event_id, count(*)::int as n from "transaction".payment_events where external_event_id like 'rollout-%' group by 1`,
    );
    const stored = new Map(rows.map((r) => [r.external_event_id, r.n]));
    expect(eventIds.filter((id) => stored.get(id) !== 1)).toEqual([]);
    expect(rows).toHaveLength(eventIds.length);

    // Every stream reconnected after each drain of its REST copy, with no refused or cut stream, and saw every payment once.
    for (const stream of streams) {
      expect(stream.refused).toEqual([]);
      expect(stream.abrupt).toEqual([]);
      expect(stream.connections).toBeGreaterThanOrEqual(2);
      expect(stream.endedWithHint).toBe(stream.connections - 1);
      const seen = paidIds(stream);
      expect(payments.filter((p) => !seen.includes(p.id))).toEqual([]);
      expect(new Set(seen).size).toBe(seen.length);
    }
    // Every push sent once: a job is finished or given back by a stopping worker, never lost or run twice.
    const pushes = pushed();
    expect(payments.filter((p) => !pushes.includes(p.id))).toEqual([]);
    expect(pushes.filter((id, i) => pushes.indexOf(id) !== i)).toEqual([]);
    expect(pushes).toHaveLength(payments.length);
    // No process logged an error while stopping or starting.
    expect(
      stack
        .report(400)
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line)),
    ).toEqual([]);
  }, 480_000);
});
