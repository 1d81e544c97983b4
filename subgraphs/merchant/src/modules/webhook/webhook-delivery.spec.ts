import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import pino from 'pino';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { type Config, loadConfig } from '@lib/config/config';
import { subgraphDatabaseUrl } from '@lib/db/database-urls';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { JobWorker } from '@lib/jobs/job-worker';
import { retryDelayMs } from '@lib/jobs/retry-schedule';
import { runOps } from '@scripts/ops';
import { changeMerchantStatus, listWebhookDeliveries, setBankWebhook } from '@scripts/database-tasks';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { merchantJobs } from '@subgraphs/merchant/src/jobs';
import { BankService } from '../bank/bank.service';
import { MerchantLifecycleService } from '../merchant/merchant-lifecycle.service';
import { MerchantService } from '../merchant/merchant.service';
import { RETRY_DELAYS_SECS, webhookSchedule } from './webhook-delivery';
import { INTERNAL_URLS, LOOPBACK_URLS } from '@test/support/outbound-urls';
import { OutboundUrlPolicy } from './outbound-url';
import { WebhookService } from './webhook.service';

type Answer = number | 'hang' | { status: number; delayMs?: number; body?: string };

interface Received {
  eventId: string;
  attempt: number;
  at: number;
  body: string;
}

/**
 * A bank's webhook receiver as the bank would write it: checks the signature (HMAC-SHA256 of
 * `timestamp.body` with the secret it was given) and the 300 s window, de-duplicates nothing, and answers
 * the n-th request of an event as `answer` says. Anything that fails its checks is recorded as rejected.
 */
class Receiver {
  secret = '';
  answer: (eventId: string, attempt: number) => Answer = () => 200;
  received: Received[] = [];
  rejected: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  reset(): void {
    this.answer = () => 200;
    this.received = [];
    this.rejected = [];
    this.maxInFlight = 0;
  }

  of(eventId: string): Received[] {
    return this.received.filter((r) => r.eventId === eventId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const problem = this.verify(req, body);
      if (problem) {
        this.rejected.push(problem);
        res.writeHead(401).end();
        return;
      }
      const eventId = req.headers['x-service-event-id'] as string;
      const attempt = this.of(eventId).length + 1;
      this.received.push({ eventId, attempt, at: Date.now(), body });
      const answer = this.answer(eventId, attempt);
      if (answer === 'hang') {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        res.on('close', () => this.inFlight--);
        return;
      }
      const { status, delayMs = 0, body: answerBody = '{"ok":true}' } = typeof answer === 'number' ? { status: answer } : answer;
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(answerBody), delayMs);
    });
  }

  private verify(req: IncomingMessage, body: string): string | null {
    if (req.method !== 'POST') return 'method';
    if (req.headers['content-type'] !== 'application/json') return 'content type';
    const timestamp = req.headers['x-service-timestamp'];
    if (typeof timestamp !== 'string' || !/^[0-9]+$/.test(timestamp)) return 'timestamp missing';
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'timestamp outside the 300 s window';
    const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex')}`);
    const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature';
    try {
      if ((JSON.parse(body) as { event_id?: string }).event_id !== req.headers['x-service-event-id']) return 'event id';
    } catch {
      return 'body is not JSON';
    }
    return null;
  }
}

interface LogLine {
  level: number;
  msg: string;
  worker?: string;
  [key: string]: unknown;
}

/** Scaled so that the whole schedule (30 s … 2 h) takes about 1.9 s. */
const SCALE = 0.0002;

describe('Webhook deliveries on the job queue (real PostgreSQL, graphile-worker, real HTTP receivers)', () => {
  let database: TestDatabase;
  let config: Config;
  let orm: Orm;
  let otherOrm: Orm;
  let bankA: Receiver;
  let bankB: Receiver;
  const logs: LogLine[] = [];
  const running: { worker: JobWorker; close(): Promise<void> }[] = [];
  let metrics: Registry;
  const fork = () => orm.em.fork() as EntityManager;
  const service = (on: Config = config) => new WebhookService(fork(), secretBoxFor(on), new OutboundUrlPolicy(on.outboundUrls));
  const sql = async <T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  const row = async (id: string) => (await sql('select * from merchant.webhook_deliveries where id = ?', [id]))[0];
  const jobsOf = async (id: string) =>
    (await sql<{ n: number }>(`select count(*)::int as n from graphile_worker._private_jobs where payload->>'delivery_id' = ?`, [id]))[0].n;

  /** A worker as the merchant process runs it (its task list, its metrics), on `on`'s connection pool. */
  function startWorker(name = 'w1', on: Orm = orm, withConfig: Config = config): void {
    const log = pino({ level: 'debug', base: { worker: name } }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
    const registry = name === 'w1' ? metrics : new Registry();
    const jobs = merchantJobs({ config: withConfig, orm: on, log: log as never, metrics: registry });
    const worker = new JobWorker({
      connectionString: subgraphDatabaseUrl(config, 'merchant', database.adminUrl),
      concurrency: 4,
      pollIntervalMs: 25,
      recoverySecs: 60,
      poolIdleMs: 1000,
      tasks: jobs.tasks,
      log,
    });
    worker.start();
    running.push({ worker, close: () => jobs.close() });
  }
  async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() - started > timeoutMs) throw new Error(`condition not met in time: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const status = (id: string, wanted: string) =>
    until(
      () => row(id),
      (r) => r.status === wanted,
    );

  let nmidSeq = 0;
  /** A lifecycle event in the outbox (and its first attempt's job): an onboarded merchant's first activation. */
  async function newEvent(bankCode: 'WHA' | 'WHB'): Promise<string> {
    const merchant = await new MerchantService(fork()).createOnboarded({
      name: `Toko ${nmidSeq}`,
      bankCode,
      primaryNmid: `ID40261122${String(++nmidSeq).padStart(5, '0')}`,
    });
    const [delivery] = await sql<{ id: string }>('select id from merchant.webhook_deliveries where merchant_id = ?', [merchant.id]);
    return delivery.id;
  }

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    config = loadConfig({ DATABASE_URL: database.adminUrl, WEBHOOK_RETRY_SCALE: String(SCALE) });
    orm = await openSubgraphOrm(merchantSubgraph, config);
    otherOrm = await openSubgraphOrm(merchantSubgraph, config);
    [bankA, bankB] = await Promise.all([new Receiver().start(), new Receiver().start()]);
    const banks = new BankService(fork(), secretBoxFor(config));
    await banks.create({ code: 'WHA', name: 'Bank A', tier: 'external' });
    await banks.create({ code: 'WHB', name: 'Bank B', tier: 'external' });
    bankA.secret = (await service().setEndpoint('WHA', bankA.url)).webhook_secret;
    bankB.secret = (await service().setEndpoint('WHB', bankB.url)).webhook_secret;
  });
  beforeEach(() => {
    metrics = new Registry();
  });
  afterEach(async () => {
    for (const { worker, close } of running.splice(0)) {
      await worker.stop();
      await close();
    }
    // Nothing a test leaves queued is picked up by the next one.
    await sql(`delete from graphile_worker._private_jobs`);
    await sql(`update graphile_worker._private_job_queues set locked_at = null, locked_by = null`);
    await sql(`update merchant.webhook_deliveries set status = 'failed' where status in ('pending', 'held')`);
    await sql(`update merchant.bank_webhook_endpoints set disabled_at = null`);
    expect([...bankA.rejected, ...bankB.rejected]).toEqual([]);
    bankA.reset();
    bankB.reset();
    logs.length = 0;
  });
  afterAll(async () => {
    await Promise.all([bankA?.close(), bankB?.close()]);
    await otherOrm?.close();
    await orm?.close();
    await database?.drop();
  });

  it('has a receiver that refuses a stale timestamp and a wrong signature', async () => {
    const body = '{"event_id":"x"}';
    const post = async (timestamp: number, secret: string) => {
      const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
      const res = await request(bankA.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-service-event-id': 'x',
          'x-service-timestamp': String(timestamp),
          'x-service-signature': `sha256=${signature}`,
        },
      });
      await res.body.dump();
      return res.statusCode;
    };
    const now = Math.floor(Date.now() / 1000);
    expect(await post(now - 301, bankA.secret)).toBe(401);
    expect(await post(now, 'another secret')).toBe(401);
    expect(await post(now, bankA.secret)).toBe(200);
    expect(bankA.rejected).toEqual(['timestamp outside the 300 s window', 'signature']);
    bankA.reset();
  });

  it('enqueues the first attempt with the change: a rolled-back change leaves neither delivery nor job', async () => {
    const merchant = await new MerchantService(fork()).createOnboarded({
      name: 'Toko Rollback',
      bankCode: 'WHA',
      primaryNmid: 'ID4026112299901',
    });
    const before = await sql<{ n: number }>('select count(*)::int as n from graphile_worker.jobs');
    await expect(
      fork().transactional(async (em) => {
        const outcome = await new MerchantLifecycleService(em).changeStatus({
          merchantId: merchant.id,
          targetStatus: 'suspended',
          reason: 'violation',
        });
        expect(outcome.webhook).not.toBeNull();
        throw new Error('the caller fails after the change');
      }),
    ).rejects.toThrow('the caller fails after the change');
    expect(
      await sql('select id from merchant.webhook_deliveries where merchant_id = ? and event = ?', [merchant.id, 'merchant.suspended']),
    ).toEqual([]);
    expect(await sql<{ n: number }>('select count(*)::int as n from graphile_worker.jobs')).toEqual(before);
    startWorker();
    const [activated] = await sql<{ id: string }>('select id from merchant.webhook_deliveries where merchant_id = ?', [merchant.id]);
    await status(activated.id, 'delivered');
    expect(bankA.received.map((r) => r.eventId)).toEqual([activated.id]);
  });

  it('posts the stored envelope, signed, with its event id; every attempt is kept', async () => {
    const answer = 'x'.repeat(3000);
    bankA.answer = () => ({ status: 200, body: answer });
    startWorker();
    const id = await newEvent('WHA');
    const stored = await status(id, 'delivered');
    const [received] = bankA.of(id);
    expect(JSON.parse(received.body)).toEqual(stored.payload);
    expect(stored).toMatchObject({ attempts: 1, last_status_code: 200, last_error: null });
    expect(await service().attempts(id)).toEqual([
      {
        attempt: 1,
        kind: 'automatic',
        schedule_no: 1,
        started_at: expect.stringMatching(/^\d{4}-/),
        latency_ms: expect.any(Number),
        status_code: 200,
        error: null,
        next_attempt_at: null,
      },
    ]);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'webhook delivered', event_id: id, bank_code: 'WHA', attempt: 1 }));
    // graphile-worker removes the job once the task has returned, a moment after the delivery's row is written.
    await until(
      () => jobsOf(id),
      (n) => n === 0,
    );
  });

  it('retries on the documented schedule plus at most 10 % jitter, then fails: metric and warn line', async () => {
    const schedule = webhookSchedule(1);
    expect([0, 0.5, 1].map((r) => retryDelayMs(schedule, 1, () => r))).toEqual([30_000, 31_500, 33_000]);
    expect(retryDelayMs(schedule, 4, () => 1)).toBe(7_920_000);
    expect(retryDelayMs(schedule, 5, () => 0)).toBeNull();

    bankA.answer = (_id, attempt) => (attempt <= 3 ? 500 : 200);
    bankB.answer = () => ({ status: 502, body: 'bad gateway' });
    startWorker();
    const recovers = await newEvent('WHA');
    const fails = await newEvent('WHB');
    await status(recovers, 'delivered');
    await status(fails, 'failed');
    expect(await row(recovers)).toMatchObject({ attempts: 4, last_status_code: 200 });
    expect(await row(fails)).toMatchObject({ attempts: 5, last_status_code: 502, last_error: 'HTTP 502' });
    expect(new Set(bankB.of(fails).map((r) => r.body)).size).toBe(1);

    const attempts = await service().attempts(fails);
    expect(attempts.map((a) => [a.kind, a.schedule_no, a.status_code])).toEqual([1, 2, 3, 4, 5].map((n) => ['automatic', n, 502]));
    // Each failure scheduled the next attempt one documented step later, stretched by at most 10 %.
    attempts.slice(0, 4).forEach((a, i) => {
      const wait = Date.parse(a.next_attempt_at!) - Date.parse(a.started_at) - a.latency_ms;
      const step = RETRY_DELAYS_SECS[i] * 1000 * SCALE;
      expect(wait).toBeGreaterThanOrEqual(step);
      expect(wait).toBeLessThanOrEqual(step * 1.1 + 100);
    });
    expect(attempts[4].next_attempt_at).toBeNull();
    const received = bankB.of(fails);
    received.slice(1).forEach((r, i) => expect(r.at - received[i].at).toBeGreaterThanOrEqual(RETRY_DELAYS_SECS[i] * 1000 * SCALE));

    const warnings = logs.filter((l) => l.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'webhook delivery failed after the last attempt',
        event_id: fails,
        bank_code: 'WHB',
        attempt: 5,
        error: 'HTTP 502',
      }),
    ]);
    expect(JSON.stringify(logs)).not.toContain(bankB.secret);
    expect(await metrics.getSingleMetricAsString('webhook_deliveries_failed_total')).toContain(
      'webhook_deliveries_failed_total{bank_code="WHB"} 1',
    );
    expect(await metrics.getSingleMetricAsString('webhook_attempts_total')).toContain(
      'webhook_attempts_total{kind="automatic",outcome="http_error"} 8',
    );
  });

  it('redelivers on request as a manual attempt that leaves the automatic schedule as it is', async () => {
    bankA.answer = () => 503;
    startWorker();
    const failed = await newEvent('WHA');
    await status(failed, 'failed');
    bankA.answer = () => 200;
    const redeliveryLogs: Record<string, unknown>[] = [];
    const view = await service().redeliver(failed, { info: (obj, msg) => void redeliveryLogs.push({ ...obj, msg }) });
    expect(view).toMatchObject({ event_id: failed, status: 'pending', attempts: 5, bank_code: 'WHA' });
    expect(redeliveryLogs).toEqual([expect.objectContaining({ msg: 'webhook redelivery requested', event_id: failed, attempts: 5 })]);
    expect(await status(failed, 'delivered')).toMatchObject({ attempts: 5, last_status_code: 200 });
    expect((await service().attempts(failed)).map((a) => [a.attempt, a.kind, a.status_code])).toEqual([
      ...[1, 2, 3, 4, 5].map((n) => [n, 'automatic', 503]),
      [6, 'manual', 200],
    ]);
    const bodies = bankA.of(failed).map((r) => r.body);
    expect(new Set(bodies).size).toBe(1);

    // A pending delivery keeps its automatic attempts: the manual one comes on top, the schedule goes on.
    bankA.answer = (_id, attempt) => (attempt <= 2 ? 503 : 200);
    const pending = await newEvent('WHA');
    await until(
      () => row(pending),
      (r) => r.attempts >= 1,
    );
    await service().redeliver(pending);
    await status(pending, 'delivered');
    await new Promise((r) => setTimeout(r, 300));
    const list = await service().attempts(pending);
    const automatic = list.filter((a) => a.kind === 'automatic');
    expect(list.filter((a) => a.kind === 'manual')).toHaveLength(1);
    expect(automatic.map((a) => a.schedule_no)).toEqual(automatic.map((_a, i) => i + 1));
    expect((await row(pending)).attempts).toBe(automatic.length);
    await expect(service().redeliver('019a0000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });

  it('sends a signed webhook.test event to a bank’s endpoint and records it as a test attempt', async () => {
    bankB.answer = () => ({ status: 200, body: '{"received":true}' });
    const result = await service().sendTest('WHB');
    expect(result).toEqual({
      event_id: expect.any(String),
      kind: 'test',
      delivered: true,
      status_code: 200,
      error: null,
      latency_ms: expect.any(Number),
      next_attempt_at: null,
    });
    const [received] = bankB.of(result.event_id);
    expect(JSON.parse(received.body)).toEqual({
      event_id: result.event_id,
      event: 'webhook.test',
      occurred_at: expect.any(String),
      merchant: null,
      change: null,
    });
    expect(await row(result.event_id)).toMatchObject({ event: 'webhook.test', status: 'delivered', merchant_id: null, attempts: 0 });
    expect((await service().attempts(result.event_id)).map((a) => a.kind)).toEqual(['test']);
    bankB.answer = () => 500;
    expect(await service().sendTest('WHB')).toMatchObject({ delivered: false, status_code: 500, error: 'HTTP 500' });
    await expect(service().sendTest('NOPE')).rejects.toThrow('unknown bank NOPE');
  });

  it('holds the deliveries of a disabled endpoint (not attempted, not lost) and resumes them when it is enabled', async () => {
    let up = false;
    bankA.answer = () => (up ? 200 : 503);
    startWorker();
    const retrying = await newEvent('WHA');
    await until(
      () => row(retrying),
      (r) => r.attempts >= 1,
    );
    const disabled = await service().setEndpointEnabled('WHA', false, 'bank maintenance');
    expect(disabled).toMatchObject({ bank_code: 'WHA', enabled: false, disabled_reason: 'bank maintenance', resumed: 0 });
    const whileDisabled = await newEvent('WHA');
    expect(await row(whileDisabled)).toMatchObject({ status: 'held', attempts: 0 });
    expect(await jobsOf(whileDisabled)).toBe(0);
    // The retry that comes due finds the endpoint disabled: held, its attempt not used.
    const held = await status(retrying, 'held');
    await new Promise((r) => setTimeout(r, 1200));
    expect(bankA.of(retrying)).toHaveLength(held.attempts);
    expect(await row(retrying)).toMatchObject({ status: 'held', attempts: held.attempts });
    await expect(service().redeliver(whileDisabled)).rejects.toThrow('disabled');
    // A test event still goes out: how an operator checks the endpoint before enabling it.
    up = true;
    expect(await service().sendTest('WHA')).toMatchObject({ delivered: true });

    expect(await service().setEndpointEnabled('WHA', true)).toMatchObject({ enabled: true, resumed: 2, disabled_at: null });
    await status(retrying, 'delivered');
    await status(whileDisabled, 'delivered');
    expect(await row(retrying)).toMatchObject({ attempts: held.attempts + 1 });
    expect(await row(whileDisabled)).toMatchObject({ attempts: 1 });
    expect(await service().setEndpointEnabled('WHA', true)).toMatchObject({ resumed: 0 });
  });

  it('delivers each event exactly once with two workers (two pools, two connection pools) at work at once', async () => {
    bankA.answer = bankB.answer = () => ({ status: 200, delayMs: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await newEvent('WHA'), await newEvent('WHB'));
    startWorker('w1');
    startWorker('w2', otherOrm);
    await until(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from merchant.webhook_deliveries where status = 'delivered' and id = any(?::uuid[])`,
            [`{${ids.join(',')}}`],
          )
        )[0].n,
      (n) => n === ids.length,
    );
    await new Promise((r) => setTimeout(r, 200));
    const received = [...bankA.received, ...bankB.received];
    expect(received).toHaveLength(ids.length);
    expect(new Set(received.map((r) => r.eventId))).toEqual(new Set(ids));
    expect(
      await sql(`select count(*)::int as n from merchant.webhook_attempts a where a.delivery_id = any(?::uuid[])`, [`{${ids.join(',')}}`]),
    ).toEqual([{ n: ids.length }]);
    const byWorker = (name: string) => logs.filter((l) => l.msg === 'webhook delivered' && l.worker === name).length;
    expect(byWorker('w1') + byWorker('w2')).toBe(ids.length);
    expect(byWorker('w1')).toBeGreaterThan(0);
    expect(byWorker('w2')).toBeGreaterThan(0);
  });

  it('checks the endpoint again at delivery and connects only to the addresses it checked: refusals are failed attempts with the reason', async () => {
    // A name that resolves (here by the policy's resolver) to loopback: delivered while the allow-list has loopback,
    // to the very address the check saw (the name has no DNS entry at all).
    const byName = bankA.url.replace('127.0.0.1', 'bank-a.example');
    const strict = loadConfig({ DATABASE_URL: database.adminUrl, WEBHOOK_RETRY_SCALE: String(SCALE), OUTBOUND_ALLOW_CIDRS: 'none' });
    const resolvingTo =
      (...addresses: string[]) =>
      (_host: string, _options: object, callback: (error: null, found: LookupAddress[]) => void) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
    const resolved = (on: Config, ...addresses: string[]) =>
      new WebhookService(fork(), secretBoxFor(on), new OutboundUrlPolicy(on.outboundUrls, resolvingTo(...addresses)));
    bankA.secret = (await resolved(config, '127.0.0.1').setEndpoint('WHA', byName)).webhook_secret;
    const reached = bankA.received.length;
    expect(await resolved(config, '127.0.0.1').sendTest('WHA')).toMatchObject({ delivered: true, status_code: 200 });
    expect(bankA.received.length).toBe(reached + 1);

    // Without the allow-list, or when any address of the name is internal, nothing is connected to.
    expect(await resolved(strict, '127.0.0.1').sendTest('WHA')).toMatchObject({
      delivered: false,
      status_code: null,
      error: 'refused: bank-a.example resolves to 127.0.0.1 (loopback)',
    });
    expect(await resolved(strict, '8.8.8.8', '::ffff:169.254.169.254').sendTest('WHA')).toMatchObject({
      delivered: false,
      error: 'refused: bank-a.example resolves to ::ffff:169.254.169.254 (link-local (cloud metadata))',
    });
    expect(bankA.received.length).toBe(reached + 1);

    // The delivery job checks the stored URL again under its own policy: a URL set while loopback was allowed is
    // refused by a worker without the allow-list; the attempt is recorded and retried like any other failure.
    bankA.secret = (await service().setEndpoint('WHA', bankA.url.replace('127.0.0.1', 'localhost'))).webhook_secret;
    startWorker('w1', orm, strict);
    const id = await newEvent('WHA');
    expect(
      await until(
        () => row(id),
        (r) => r.attempts >= 1,
      ),
    ).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'refused: url must not point to localhost (loopback)' });
    expect(bankA.of(id)).toEqual([]);

    // An internal URL stored before this policy is refused before any connection, whatever the allow-list.
    await sql(
      `update merchant.bank_webhook_endpoints set url = 'http://0xa9fea9fe/latest/meta-data/' where bank_id = (select id from merchant.banks where code = 'WHA')`,
    );
    expect(await service().sendTest('WHA')).toMatchObject({
      delivered: false,
      status_code: null,
      error: 'refused: url must not point to 169.254.169.254 (link-local (cloud metadata))',
    });
    bankA.secret = (await service().setEndpoint('WHA', bankA.url)).webhook_secret;
  });

  describe('operator tools', () => {
    it('bank:webhook issues a new secret on every call, stored sealed', async () => {
      const first = await setBankWebhook(config, database.adminUrl, { bankCode: 'WHA', url: bankA.url });
      const second = await setBankWebhook(config, database.adminUrl, { bankCode: 'WHA', url: bankA.url });
      expect(first).toEqual({ bank_code: 'WHA', url: bankA.url, webhook_secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(second.webhook_secret).not.toBe(first.webhook_secret);
      const [stored] = await sql(
        `select e.secret_sealed from merchant.bank_webhook_endpoints e join merchant.banks b on b.id = e.bank_id where b.code = 'WHA'`,
      );
      expect(stored.secret_sealed).not.toContain(second.webhook_secret);
      expect(secretBoxFor(config).open(stored.secret_sealed)).toBe(second.webhook_secret);
      bankA.secret = second.webhook_secret;
      startWorker();
      await status(await newEvent('WHA'), 'delivered');

      await expect(setBankWebhook(config, database.adminUrl, { bankCode: 'NOPE', url: bankA.url })).rejects.toThrow('unknown bank NOPE');
    });

    it('bank:webhook refuses internal addresses in every spelling, loopback too without the allow-list, and stores nothing', async () => {
      const stored = () => sql('select bank_id, url, secret_sealed from merchant.bank_webhook_endpoints order by bank_id');
      const before = await stored();
      const refusals = async (urls: string[], env: NodeJS.ProcessEnv) => {
        const answers: [string, number, string][] = [];
        for (const url of urls) {
          let stderr = '';
          const code = await runOps(['bank:webhook', '--bank', 'WHA', '--url', url], env, {
            stdout: () => {},
            stderr: (t) => void (stderr += t),
          });
          answers.push([url, code, (JSON.parse(stderr) as { error: { message: string } }).error.message]);
        }
        return answers;
      };
      const development = { ...process.env, DATABASE_URL: database.adminUrl, NODE_ENV: 'development', OUTBOUND_ALLOW_CIDRS: '' };
      expect(await refusals(INTERNAL_URLS, development)).toEqual(INTERNAL_URLS.map((url) => [url, 1, expect.stringMatching(/^url must /)]));
      expect(await refusals(LOOPBACK_URLS, { ...development, OUTBOUND_ALLOW_CIDRS: 'none' })).toEqual(
        LOOPBACK_URLS.map((url) => [url, 1, expect.stringMatching(/^url must not point to .*loopback/)]),
      );
      expect(await stored()).toEqual(before);

      const production = new OutboundUrlPolicy({ requireHttps: true, allowCidrs: [] });
      expect(production.check('https://Bank.Example:8443/hooks?x=1').href).toBe('https://bank.example:8443/hooks?x=1');
      expect(() => production.check('http://bank.example/hooks')).toThrow('url must use https in production');
      expect(() => production.check('https://[::ffff:8.8.8.8]/')).not.toThrow();
      expect(() => production.check('https://[2002:808:808::1]/')).not.toThrow();
    });

    it('webhook:deliveries lists newest first, by status and bank; merchant:status moves a merchant and reports its webhook', async () => {
      const a = await newEvent('WHA');
      const b = await newEvent('WHB');
      const pending = await listWebhookDeliveries(config, database.adminUrl, { status: 'pending' });
      expect(pending.map((d) => d.event_id)).toEqual([b, a]);
      expect(pending[0]).toMatchObject({
        event: 'merchant.activated',
        bank_code: 'WHB',
        status: 'pending',
        attempts: 0,
        last_error: null,
        delivered_at: null,
      });
      expect(pending[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(
        (await listWebhookDeliveries(config, database.adminUrl, { status: 'pending', bankCode: 'WHA' })).map((d) => d.event_id),
      ).toEqual([a]);
      expect(await listWebhookDeliveries(config, database.adminUrl, { limit: 1 })).toHaveLength(1);
      await expect(listWebhookDeliveries(config, database.adminUrl, { status: 'lost' })).rejects.toThrow(
        'status must be one of pending, held, delivered, failed',
      );
      await expect(listWebhookDeliveries(config, database.adminUrl, { limit: 0 })).rejects.toThrow('limit must be between 1 and 500');

      const [{ merchant_id: merchantId }] = await sql('select merchant_id from merchant.webhook_deliveries where id = ?', [a]);
      const moved = await changeMerchantStatus(config, database.adminUrl, {
        merchantId,
        targetStatus: 'suspended',
        reason: 'operator_action',
      });
      expect(moved).toEqual({
        merchant_id: merchantId,
        merchant_code: expect.stringMatching(/^MRC-/),
        previous_status: 'active',
        status: 'suspended',
        reason: 'operator_action',
        webhook: { event_id: expect.any(String), event: 'merchant.suspended' },
      });
      await expect(
        changeMerchantStatus(config, database.adminUrl, { merchantId, targetStatus: 'suspended', reason: 'violation' }),
      ).rejects.toThrow('cannot move a merchant from suspended to suspended');
    });

    it('webhook:attempts, webhook:redeliver, webhook:test and webhook:endpoint from the command line', async () => {
      const env = { ...process.env, DATABASE_URL: database.adminUrl, NODE_ENV: 'development' };
      const ops = async (argv: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await runOps(argv, env, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
        return { code, result: stdout ? (JSON.parse(stdout) as { result: any }).result : null, stderr };
      };
      bankA.answer = () => 200;
      const id = await newEvent('WHA');
      expect(await ops(['webhook:endpoint', '--bank', 'WHA', '--disable', '--reason', 'maintenance'])).toMatchObject({
        code: 0,
        result: { bank_code: 'WHA', enabled: false, disabled_reason: 'maintenance' },
      });
      expect((await ops(['webhook:endpoint', '--bank', 'WHA'])).code).toBe(2);
      expect((await ops(['webhook:redeliver', '--delivery', id])).code).toBe(1);
      expect(await ops(['webhook:test', '--bank', 'WHA'])).toMatchObject({
        code: 0,
        result: { kind: 'test', delivered: true, status_code: 200 },
      });
      expect(await ops(['webhook:endpoint', '--bank', 'WHA', '--enable'])).toMatchObject({
        code: 0,
        result: { enabled: true, resumed: 0 },
      });
      startWorker();
      await status(id, 'delivered');
      const redelivered = await ops(['webhook:redeliver', '--delivery', id]);
      expect(redelivered).toMatchObject({ code: 0, result: { event_id: id, status: 'pending' } });
      await until(
        () => service().attempts(id),
        (list) => list.length === 2,
      );
      expect((await ops(['webhook:attempts', '--delivery', id])).result.map((a: { kind: string }) => a.kind)).toEqual([
        'automatic',
        'manual',
      ]);
    });
  });
});
