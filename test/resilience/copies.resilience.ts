import { createHmac } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { Agent, request } from 'undici';
import { signUserAccessToken } from '@lib/auth/user-token';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { changeMerchantStatus, issuePartnerCredential, revokePartnerCredential, setBankWebhook } from '@scripts/database-tasks';
import { demoBankEventRequest } from '../support/bank-events';
import { adminQuery } from '../support/test-database';
import { ProcessStack, ProcessTestDatabase, WebhookReceiver, freePort, sleep } from './processes';

/**
 * Two copies of every process (REST, gateway, each subgraph) behind round-robin balancers, sharing PostgreSQL and
 * Redis, as `docker compose up --scale …` runs them (docs/decisions/0010-caches-and-copies.md):
 * - a per-credential rate limit is one budget across copies;
 * - a revoked partner credential, a logged-out session and a changed merchant status take effect on every copy at
 *   once (cache invalidation), not after the caches' TTLs (60 s, 30 s);
 * - the OTP cooldown holds across copies; the POS sync pull delivers every write of both copies once; each lifecycle
 *   webhook is delivered once with a job worker in both merchant copies, and the job of a killed copy runs on another;
 * - kill -9 of one copy of every tier under a stream of bank events: no acknowledged event is lost or stored twice.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** How soon a change must show on every copy: far below the caches' TTLs (30–60 s). */
const PROPAGATION_MS = 3000;

interface Answer {
  status: number;
  body: string;
}

describe('two copies of every process', () => {
  let db: ProcessTestDatabase;
  let config: Config;
  let stack: ProcessStack;
  const agent = new Agent({ connections: 32 });

  /** A request to the balancer (`copy` undefined) or straight to one REST copy. */
  const call = async (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}, copy?: number) => {
    const origin = copy === undefined ? stack.restOrigin : `http://127.0.0.1:${stack.copies.rest[copy].port}`;
    const res = await request(`${origin}${path}`, {
      method: (init.method ?? 'GET') as 'GET',
      headers: init.headers,
      body: init.body,
      dispatcher: agent,
    });
    return { status: res.statusCode, body: await res.body.text() } satisfies Answer;
  };
  const json = (headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers });

  /** Polls `probe` on both REST copies until each gives `expected`; returns the milliseconds that took. */
  const onEveryCopy = async (probe: (copy: number) => Promise<number>, expected: number): Promise<number> => {
    const started = Date.now();
    const pending = new Set([0, 1]);
    while (pending.size > 0 && Date.now() - started < 20_000) {
      for (const copy of [...pending]) if ((await probe(copy)) === expected) pending.delete(copy);
      if (pending.size > 0) await sleep(50);
    }
    if (pending.size > 0) throw new Error(`copies ${[...pending].join(', ')} never answered ${expected}`);
    return Date.now() - started;
  };

  /** A webhook receiver, up, set as the demo bank's endpoint (the caller takes it down). */
  const demoBankReceiver = async () => {
    const receiver = new WebhookReceiver(await freePort());
    await receiver.up();
    const endpoint = await setBankWebhook(config, db.adminUrl, {
      bankCode: DEMO.bank.code,
      url: `http://127.0.0.1:${receiver.port}/hooks`,
    });
    receiver.setSecret(endpoint.webhook_secret);
    return receiver;
  };

  beforeAll(async () => {
    // A server of its own (200 connections): two copies of every tier at the production pool sizes, five operations
    // threads in each REST copy, hold more at start than the machine's server of 100 leaves (as in rollout.resilience.ts).
    db = await ProcessTestDatabase.create('qris_copies', { embedded: true });
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.adminUrl });
    stack = await ProcessStack.start(db.adminUrl, { copies: 2, env: { REDIS_URL, JOBS_RECOVERY_SECS: '3', JOBS_POLL_INTERVAL_MS: '200' } });
  }, 170_000);

  afterAll(async () => {
    await stack?.stop();
    await agent.close();
    await db?.drop();
  });

  describe('partner credentials', () => {
    const issue = (rate: number) =>
      issuePartnerCredential(config, db.adminUrl, {
        partnerCode: DEMO.partner.code,
        name: `copies ${uuidv7()}`,
        contract: 'B',
        mode: 'jwt',
        scopes: ['merchant.read'],
        rateLimitPerMinute: rate,
      });
    const tokenOf = async (key: { credential_key: string; credential_secret: string }) => {
      const res = await call('/api/partner/v1/auth/token', { method: 'POST', headers: json(), body: JSON.stringify(key) });
      expect(res.status).toBe(200);
      return (JSON.parse(res.body) as { access_token: string }).access_token;
    };
    const summary = (token: string, copy?: number) =>
      call(
        `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants/summary`,
        { headers: { authorization: `Bearer ${token}` } },
        copy,
      );

    it('count one rate-limit budget across copies: 60 per minute is 60 in total', async () => {
      const token = await tokenOf(await issue(60));
      const answers: Answer[] = [];
      for (let i = 0; i < 70; i += 1) answers.push(await summary(token, i % 2));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
    });

    it('stop working on every copy as soon as one is revoked', async () => {
      const key = await issue(1000);
      const token = await tokenOf(key);
      // Both copies have the credential cached as active (60 s).
      expect([(await summary(token, 0)).status, (await summary(token, 1)).status]).toEqual([200, 200]);
      await revokePartnerCredential(config, db.adminUrl, key.credential_key);
      expect(await onEveryCopy(async (copy) => (await summary(token, copy)).status, 401)).toBeLessThan(PROPAGATION_MS);
    });
  });

  it('end a logged-out session on every copy at once', async () => {
    const sessionId = uuidv7();
    await adminQuery(
      db.adminUrl,
      `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at)
       values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
      [sessionId, DEMO.owner.userId],
    );
    const { token } = await signUserAccessToken({ userId: DEMO.owner.userId, sessionId }, config.secrets.userTokenSecret);
    const bearer = { authorization: `Bearer ${token}` };
    const profile = async (copy: number) => (await call('/auth/profile', { headers: bearer }, copy)).status;
    expect([await profile(0), await profile(1)]).toEqual([200, 200]); // cached as live by both copies (30 s)
    expect((await call('/auth/logout', { method: 'POST', headers: bearer }, 0)).status).toBe(200);
    expect(await onEveryCopy(profile, 401)).toBeLessThan(PROPAGATION_MS);
  });

  it('show a changed merchant status on every copy at once', async () => {
    const nmid = DEMO.otherMerchants[0].outlets[0].nmid;
    const target = `/api/psp/v1/merchants/by-nmid/${nmid}`;
    const lookup = async (copy: number) => {
      const timestamp = new Date().toISOString();
      const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
      const res = await call(
        target,
        { headers: { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': signature } },
        copy,
      );
      expect(res.status).toBe(200);
      return (JSON.parse(res.body) as { merchant: { status: string } }).merchant.status;
    };
    const before = [await lookup(0), await lookup(1)]; // cached per bank by both copies
    expect(before).toEqual(['active', 'active']);
    await changeMerchantStatus(config, db.adminUrl, {
      merchantId: DEMO.otherMerchants[0].id,
      targetStatus: 'suspended',
      reason: 'operator_action',
    });
    const took = await onEveryCopy(async (copy) => ((await lookup(copy)) === 'suspended' ? 1 : 0), 1);
    expect(took).toBeLessThan(PROPAGATION_MS);
  });

  it('keep the OTP cooldown across copies', async () => {
    const phone = '+6281255071234';
    const ask = (copy: number) => call('/auth/request-otp', { method: 'POST', headers: json(), body: JSON.stringify({ phone }) }, copy);
    expect((await ask(0)).status).toBe(200);
    const second = await ask(1);
    expect(second.status).toBe(429);
    expect(JSON.parse(second.body)).toMatchObject({ code: 'otp_cooldown', retry_after_secs: expect.any(Number) });
  });

  it('keep the POS sync pull gap-free while both copies take writes', async () => {
    const pos = (path: string, init: { method?: string; body?: unknown } = {}, copy?: number) =>
      call(
        `/poslite${path}`,
        {
          method: init.method,
          headers: json({ 'x-internal-api-key': config.secrets.internalApiKey, 'x-merchant-id': DEMO.merchantId }),
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        },
        copy,
      );
    const device = new Map<string, string>();
    const delivered: string[] = [];
    let since = 0;
    const drain = async () => {
      for (let more = true; more;) {
        const res = await pos(`/sync/pull?entity=products&since=${since}&limit=7`);
        expect(res.status).toBe(200);
        const page = JSON.parse(res.body) as { rows: { id: string; name: string }[]; server_time: number; has_more: boolean };
        for (const row of page.rows) {
          delivered.push(`${row.id}:${row.name}`);
          device.set(row.id, row.name);
        }
        since = page.server_time;
        more = page.has_more;
      }
    };
    await drain();
    // Two writers per copy create and rename products while the device pulls through the balancer.
    let running = true;
    const puller = (async () => {
      while (running) {
        await drain();
        await sleep(10);
      }
    })();
    await Promise.all(
      [0, 0, 1, 1].map(async (copy, w) => {
        for (let i = 0; i < 10; i += 1) {
          const created = await pos('/catalog/products', { method: 'POST', body: { name: `Copies ${w}-${i}`, sku: `CP-${w}-${i}` } }, copy);
          expect(created.status).toBe(201);
          const { id } = JSON.parse(created.body) as { id: string };
          const renamed = await pos(`/catalog/products/${id}`, { method: 'PATCH', body: { name: `Copies ${w}-${i} v2` } }, 1 - copy);
          expect(renamed.status).toBe(200);
        }
      }),
    );
    running = false;
    await puller;
    const truth = await adminQuery<{ id: string; name: string }>(
      db.adminUrl,
      'select id, name from catalog.products where merchant_id = $1',
      [DEMO.merchantId],
    );
    for (let waited = 0; truth.some((r) => device.get(r.id) !== r.name) && waited < 10_000; waited += 100) {
      await drain();
      await sleep(100);
    }
    for (const row of truth) expect(device.get(row.id)).toBe(row.name);
    expect(new Set(delivered).size).toBe(delivered.length); // no version delivered twice
  });

  it('deliver each lifecycle webhook exactly once with a job worker in both merchant copies', async () => {
    const receiver = await demoBankReceiver();
    try {
      const merchants = [DEMO.merchantId, DEMO.otherMerchants[1].id]; // otherMerchants[0] is suspended above
      for (const merchantId of merchants) {
        await changeMerchantStatus(config, db.adminUrl, { merchantId, targetStatus: 'suspended', reason: 'operator_action' });
        await changeMerchantStatus(config, db.adminUrl, { merchantId, targetStatus: 'active' });
      }
      const ids = (
        await adminQuery<{ id: string }>(
          db.adminUrl,
          `select d.id from merchant.webhook_deliveries d join merchant.banks b on b.id = d.bank_id where b.code = $1 and d.event <> 'webhook.test'`,
          [DEMO.bank.code],
        )
      ).map((r) => r.id);
      expect(ids.length).toBeGreaterThanOrEqual(merchants.length * 2);
      for (let waited = 0; new Set(receiver.received.map((r) => r.eventId)).size < ids.length && waited < 20_000; waited += 100)
        await sleep(100);
      await sleep(1000); // a second delivery would arrive now
      expect(receiver.badSignatures).toBe(0);
      expect(receiver.received.map((r) => r.eventId).sort()).toEqual([...ids].sort());
    } finally {
      await receiver.down();
    }
  });

  it('lose and duplicate no acknowledged bank event when one copy of every tier is killed', async () => {
    const answers: { id: string; status: number }[] = [];
    let running = true;
    let seq = 0;
    const worker = async () => {
      while (running) {
        seq += 1;
        const id = `copies-${seq}`;
        const event = demoBankEventRequest({ external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 10_000 });
        try {
          const res = await request(`${stack.restOrigin}/psp/v1/events`, {
            method: 'POST',
            body: event.payload,
            headers: event.headers,
            dispatcher: agent,
          });
          await res.body.dump();
          answers.push({ id, status: res.statusCode });
          // A bank retries what was not acknowledged, with the same event id.
          if (res.statusCode !== 200) {
            const again = await request(`${stack.restOrigin}/psp/v1/events`, {
              method: 'POST',
              body: event.payload,
              headers: event.headers,
              dispatcher: agent,
            });
            await again.body.dump();
            answers.push({ id, status: again.statusCode });
          }
        } catch {
          answers.push({ id, status: 0 });
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await sleep(1500);
    for (const tier of ['rest', 'gateway', 'merchant', 'outlet', 'transaction', 'catalog'] as const) {
      await stack.copies[tier][1].kill9();
      await sleep(700);
    }
    await sleep(2000);
    running = false;
    await Promise.all(workers);

    const acknowledged = new Set(answers.filter((a) => a.status === 200).map((a) => a.id));
    const late = answers.slice(-20);
    expect(late.filter((a) => a.status !== 200)).toEqual([]); // the surviving copies carry the load
    expect(answers.filter((a) => ![200, 502, 503].includes(a.status))).toEqual([]);
    const rows = await adminQuery<{ external_event_id: string; n: string }>(
      db.adminUrl,
      `select external_event_id, count(*)::text as n from transaction.payment_events where external_event_id like 'copies-%' group by 1`,
    );
    const stored = new Map(rows.map((r) => [r.external_event_id, Number(r.n)]));
    expect([...acknowledged].filter((id) => stored.get(id) !== 1)).toEqual([]);
    expect([...stored.values()].filter((n) => n !== 1)).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(50);
  });

  it('run the webhook job of a killed merchant copy on another copy (worker heartbeats, JOBS_RECOVERY_SECS)', async () => {
    // Since the test above merchant copy 1 is dead: copy 0 takes the job, dies with it, and copy 1 comes back.
    const receiver = await demoBankReceiver();
    try {
      receiver.holdNext(1);
      await changeMerchantStatus(config, db.adminUrl, {
        merchantId: DEMO.otherMerchants[1].id,
        targetStatus: 'suspended',
        reason: 'operator_action',
      });
      for (let waited = 0; receiver.held.length === 0 && waited < 15_000; waited += 50) await sleep(50);
      expect(receiver.held).toHaveLength(1); // merchant copy 0 is sending it, and will never hear back
      await stack.copies.merchant[0].kill9();
      const started = Date.now();
      await stack.copies.merchant[1].start();
      for (let waited = 0; !receiver.received.some((r) => r.eventId === receiver.held[0]) && waited < 30_000; waited += 100)
        await sleep(100);
      expect(receiver.received.map((r) => r.eventId)).toContain(receiver.held[0]);
      expect(Date.now() - started).toBeLessThan(30_000); // JOBS_RECOVERY_SECS=3 here, not graphile-worker's 4 hours
    } finally {
      await receiver.down();
    }
  });
});
