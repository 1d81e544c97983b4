import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { request } from 'undici';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { changeMerchantStatus, listWebhookDeliveries, setBankWebhook } from '@scripts/database-tasks';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { secretBoxFor } from '@subgraphs/merchant/src/context';
import { BankService } from '../bank/bank.service';
import { MerchantService } from '../merchant/merchant.service';
import { type DispatcherLog, WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher';
import { WebhookService, validEndpointUrl } from './webhook.service';

type Answer = number | 'hang' | { status: number; delayMs: number };

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
      const { status, delayMs } = typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}'), delayMs);
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
  level: string;
  msg: string;
  [key: string]: unknown;
}

describe('WebhookDispatcher (real PostgreSQL, real HTTP receivers)', () => {
  let database: TestDatabase;
  let orm: Orm;
  let otherOrm: Orm;
  let bankA: Receiver;
  let bankB: Receiver;
  const logs: LogLine[] = [];
  const dispatchers: WebhookDispatcher[] = [];
  const config = () => loadConfig({ DATABASE_URL: database.adminUrl });
  const fork = () => orm.em.fork() as EntityManager;
  const sql = async <T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  const row = async (id: string) => (await sql('select * from merchant.webhook_deliveries where id = ?', [id]))[0];
  const capture = (name: string): DispatcherLog => ({
    info: (obj, msg) => logs.push({ level: 'info', dispatcher: name, ...obj, msg }),
    warn: (obj, msg) => logs.push({ level: 'warn', dispatcher: name, ...obj, msg }),
    error: (obj, msg) => logs.push({ level: 'error', dispatcher: name, ...obj, msg }),
  });
  function dispatcher(options: Partial<WebhookDispatcherOptions> & { name?: string; on?: Orm } = {}): WebhookDispatcher {
    const { name = 'd1', on = orm, ...rest } = options;
    const created = new WebhookDispatcher({ knex: on.em.getKnex(), box: secretBoxFor(config()), log: capture(name), ...rest });
    dispatchers.push(created);
    return created;
  }
  async function until(condition: () => Promise<boolean>, timeoutMs = 10000): Promise<number> {
    const started = Date.now();
    while (!(await condition())) {
      if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
    return Date.now() - started;
  }

  let nmidSeq = 0;
  /** A lifecycle event in the outbox: an onboarded merchant's first activation. */
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
    orm = await openSubgraphOrm(merchantSubgraph, config());
    otherOrm = await openSubgraphOrm(merchantSubgraph, config());
    [bankA, bankB] = await Promise.all([new Receiver().start(), new Receiver().start()]);
    const banks = new BankService(fork(), secretBoxFor(config()));
    await banks.create({ code: 'WHA', name: 'Bank A', tier: 'external' });
    await banks.create({ code: 'WHB', name: 'Bank B', tier: 'external' });
    const webhooks = new WebhookService(fork(), secretBoxFor(config()));
    bankA.secret = (await webhooks.setEndpoint('WHA', bankA.url, { requireHttps: false })).webhook_secret;
    bankB.secret = (await webhooks.setEndpoint('WHB', bankB.url, { requireHttps: false })).webhook_secret;
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    // Nothing a test leaves pending is picked up by the next one.
    await sql(`update merchant.webhook_deliveries set status = 'failed' where status = 'pending'`);
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

  it('posts the stored envelope, signed, with its event id, and marks it delivered', async () => {
    const id = await newEvent('WHA');
    expect(await dispatcher().runOnce()).toBe(1);
    const [received] = bankA.of(id);
    const stored = await row(id);
    expect(JSON.parse(received.body)).toEqual(stored.payload);
    expect(stored).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200, last_error: null });
    expect(stored.delivered_at).not.toBeNull();
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', msg: 'webhook delivered', event_id: id, bank_code: 'WHA' }));
    expect(await dispatcher().runOnce()).toBe(0);
  });

  it('schedules attempts 2 to 5 after 30 s, 5 min, 30 min and 2 h, then fails the delivery and logs it as an error', async () => {
    bankA.answer = () => 503;
    const id = await newEvent('WHA');
    const failedBanks: string[] = [];
    const d = dispatcher({ onFailed: (bankCode) => failedBanks.push(bankCode) });
    for (const delay of [30, 300, 1800, 7200]) {
      expect(await d.runOnce()).toBe(1);
      const [state] = await sql(
        `select status, attempts, last_status_code, last_error, extract(epoch from next_attempt_at - now())::float as wait from merchant.webhook_deliveries where id = ?`,
        [id],
      );
      expect(state).toMatchObject({ status: 'pending', last_status_code: 503, last_error: 'HTTP 503' });
      expect(state.wait).toBeGreaterThan(delay - 5);
      expect(state.wait).toBeLessThanOrEqual(delay);
      expect(await d.runOnce()).toBe(0);
      await sql('update merchant.webhook_deliveries set next_attempt_at = now() where id = ?', [id]);
    }
    expect(await d.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 5, last_status_code: 503 });
    expect(failedBanks).toEqual(['WHA']);
    expect(bankA.of(id).map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(bankA.of(id).map((r) => r.body)).size).toBe(1);
    expect(logs.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({
        msg: 'webhook delivery failed after the last attempt',
        event_id: id,
        bank_code: 'WHA',
        attempt: 5,
        error: 'HTTP 503',
      }),
    ]);
    await sql('update merchant.webhook_deliveries set next_attempt_at = now() where id = ?', [id]);
    expect(await d.runOnce()).toBe(0);
  });

  it('retries on the scaled schedule: delivered at the 4th attempt, failed after the 5th', async () => {
    const scale = 0.0002;
    bankA.answer = (_id, attempt) => (attempt <= 3 ? 500 : 200);
    bankB.answer = () => 502;
    const recovers = await newEvent('WHA');
    const fails = await newEvent('WHB');
    dispatcher({ retryScale: scale }).start(2);
    await until(async () => (await row(recovers)).status === 'delivered' && (await row(fails)).status === 'failed');
    expect(await row(recovers)).toMatchObject({ attempts: 4, last_status_code: 200 });
    expect(await row(fails)).toMatchObject({ attempts: 5, last_status_code: 502, last_error: 'HTTP 502' });
    const gaps = (received: Received[]) => received.slice(1).map((r, i) => r.at - received[i].at);
    const expected = [30, 300, 1800, 7200].map((s) => s * 1000 * scale);
    for (const [eventGaps, wanted] of [
      [gaps(bankA.of(recovers)), expected.slice(0, 3)],
      [gaps(bankB.of(fails)), expected],
    ] as const) {
      expect(eventGaps).toHaveLength(wanted.length);
      eventGaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(wanted[i] - 5));
      eventGaps.forEach((gap, i) => expect(gap).toBeLessThan(wanted[i] + 1000));
    }
  });

  it('delivers each event exactly once with two dispatchers (two connection pools) at work at once', async () => {
    bankA.answer = bankB.answer = () => ({ status: 200, delayMs: 15 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await newEvent('WHA'), await newEvent('WHB'));
    dispatcher({ name: 'd1', concurrency: 4, perBankConcurrency: 4 }).start(1);
    dispatcher({ name: 'd2', on: otherOrm, concurrency: 4, perBankConcurrency: 4 }).start(1);
    await until(
      async () =>
        (
          await sql(`select count(*)::int as n from merchant.webhook_deliveries where status = 'delivered' and id = any(?::uuid[])`, [
            `{${ids.join(',')}}`,
          ])
        )[0].n === ids.length,
    );
    const received = [...bankA.received, ...bankB.received];
    expect(received).toHaveLength(ids.length);
    expect(new Set(received.map((r) => r.eventId))).toEqual(new Set(ids));
    expect(
      await sql(`select distinct attempts from merchant.webhook_deliveries where id = any(?::uuid[])`, [`{${ids.join(',')}}`]),
    ).toEqual([{ attempts: 1 }]);
    const byDispatcher = (name: string) => logs.filter((l) => l.msg === 'webhook delivered' && l.dispatcher === name).length;
    expect(byDispatcher('d1') + byDispatcher('d2')).toBe(ids.length);
    expect(byDispatcher('d1')).toBeGreaterThan(0);
    expect(byDispatcher('d2')).toBeGreaterThan(0);
  });

  it('keeps delivering to other banks while one receiver hangs, and times the hanging sends out', async () => {
    bankA.answer = () => 'hang';
    const hanging = [await newEvent('WHA'), await newEvent('WHA'), await newEvent('WHA')];
    const healthy = [await newEvent('WHB'), await newEvent('WHB'), await newEvent('WHB')];
    dispatcher({ timeoutMs: 1500, concurrency: 4, perBankConcurrency: 2 }).start(5);
    const elapsed = await until(async () => (await Promise.all(healthy.map(row))).every((r) => r.status === 'delivered'));
    expect(elapsed).toBeLessThan(1500);
    expect(bankA.maxInFlight).toBe(2);
    await until(async () => (await Promise.all(hanging.map(row))).every((r) => r.attempts === 1));
    for (const id of hanging)
      expect(await row(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_status_code: null,
        last_error: 'no answer within 1500 ms',
      });
  });

  it('redelivers on request: a delivered event again, a failed one for one more attempt, attempts kept', async () => {
    const delivered = await newEvent('WHA');
    const d = dispatcher();
    await d.runOnce();
    const redeliveryLogs: LogLine[] = [];
    const service = new WebhookService(fork(), secretBoxFor(config()));
    const view = await service.redeliver(delivered, { info: (obj, msg) => redeliveryLogs.push({ level: 'info', ...obj, msg }) });
    expect(view).toMatchObject({ event_id: delivered, status: 'pending', attempts: 1, bank_code: 'WHA' });
    expect(redeliveryLogs).toEqual([
      expect.objectContaining({ msg: 'webhook redelivery requested', event_id: delivered, bank_code: 'WHA', attempts: 1 }),
    ]);
    expect(await d.runOnce()).toBe(1);
    expect(await row(delivered)).toMatchObject({ status: 'delivered', attempts: 2 });
    const [first, second] = bankA.of(delivered);
    expect(second.body).toBe(first.body);

    const failed = await newEvent('WHA');
    await sql(`update merchant.webhook_deliveries set status = 'failed', attempts = 5 where id = ?`, [failed]);
    bankA.answer = () => 500;
    await service.redeliver(failed);
    expect(await d.runOnce()).toBe(1);
    expect(await row(failed)).toMatchObject({ status: 'failed', attempts: 6 });
    bankA.answer = () => 200;
    await service.redeliver(failed);
    expect(await d.runOnce()).toBe(1);
    expect(await row(failed)).toMatchObject({ status: 'delivered', attempts: 7 });

    await expect(service.redeliver('019a0000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });

  describe('operator tools', () => {
    it('bank:webhook issues a new secret on every call, stored sealed; https only in production', async () => {
      const first = await setBankWebhook(config(), database.adminUrl, { bankCode: 'WHA', url: bankA.url });
      const second = await setBankWebhook(config(), database.adminUrl, { bankCode: 'WHA', url: bankA.url });
      expect(first).toEqual({ bank_code: 'WHA', url: bankA.url, webhook_secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(second.webhook_secret).not.toBe(first.webhook_secret);
      const [stored] = await sql(
        `select e.secret_sealed from merchant.bank_webhook_endpoints e join merchant.banks b on b.id = e.bank_id where b.code = 'WHA'`,
      );
      expect(stored.secret_sealed).not.toContain(second.webhook_secret);
      expect(secretBoxFor(config()).open(stored.secret_sealed)).toBe(second.webhook_secret);
      bankA.secret = second.webhook_secret;
      const id = await newEvent('WHA');
      await dispatcher().runOnce();
      expect(await row(id)).toMatchObject({ status: 'delivered' });

      expect(validEndpointUrl('https://bank.example/hooks', true)).toBe('https://bank.example/hooks');
      expect(() => validEndpointUrl('http://bank.example/hooks', true)).toThrow('url must use https in production');
      expect(() => validEndpointUrl('ftp://bank.example/hooks', false)).toThrow('url must be an absolute http(s) URL');
      expect(() => validEndpointUrl('https://user:pw@bank.example/hooks', false)).toThrow('url must not carry credentials');
      await expect(setBankWebhook(config(), database.adminUrl, { bankCode: 'NOPE', url: bankA.url })).rejects.toThrow('unknown bank NOPE');
    });

    it('webhook:deliveries lists newest first, by status and bank; merchant:status moves a merchant and reports its webhook', async () => {
      const a = await newEvent('WHA');
      const b = await newEvent('WHB');
      const pending = await listWebhookDeliveries(config(), database.adminUrl, { status: 'pending' });
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
        (await listWebhookDeliveries(config(), database.adminUrl, { status: 'pending', bankCode: 'WHA' })).map((d) => d.event_id),
      ).toEqual([a]);
      expect(await listWebhookDeliveries(config(), database.adminUrl, { limit: 1 })).toHaveLength(1);
      await expect(listWebhookDeliveries(config(), database.adminUrl, { status: 'lost' })).rejects.toThrow(
        'status must be one of pending, delivered, failed',
      );
      await expect(listWebhookDeliveries(config(), database.adminUrl, { limit: 0 })).rejects.toThrow('limit must be between 1 and 500');

      const [{ merchant_id: merchantId }] = await sql('select merchant_id from merchant.webhook_deliveries where id = ?', [a]);
      const moved = await changeMerchantStatus(config(), database.adminUrl, {
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
        changeMerchantStatus(config(), database.adminUrl, { merchantId, targetStatus: 'suspended', reason: 'violation' }),
      ).rejects.toThrow('cannot move a merchant from suspended to suspended');
    });
  });
});
