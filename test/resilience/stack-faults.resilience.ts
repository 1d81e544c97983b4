import { Agent, request } from 'undici';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { changeMerchantStatus, setBankWebhook } from '@scripts/database-tasks';
import { demoBankEventRequest } from '../support/bank-events';
import { adminQuery } from '../support/test-database';
import {
  type PostgresProcess,
  ProcessStack,
  ProcessTestDatabase,
  type StackProcess,
  type Tier,
  WebhookReceiver,
  freePort,
  sleep,
} from './processes';
import { eventually } from '../support/eventually';
import { uncleanAnswers } from './traffic';

/**
 * Fault injection on the real processes (dist/) over a private embedded PostgreSQL: while signed bank events
 * stream in, kill -9 the transaction subgraph, the outlet subgraph and the gateway process, which changes nothing for
 * the intake (REST runs the query plans and the subgraphs in process, and resolves events from the transaction
 * subgraph's copy of payment targets); then restart PostgreSQL: meanwhile every answer is 200 or a clean 503 body
 * within the timeout, and the intake recovers without restarting anything; every event that was answered 200 is
 * stored exactly once. Then a lifecycle webhook receiver that is down, then up, gets every
 * event by the retry schedule (shrunk by WEBHOOK_RETRY_SCALE).
 */
const GATEWAY_TIMEOUT_MS = 3000;
/** No answer may take longer: the REST process's gateway timeout plus scheduling slack on a loaded machine. */
const ANSWER_LIMIT_MS = GATEWAY_TIMEOUT_MS + 4000;
const RECOVERY_LIMIT_MS = 30_000;
const RETRY_SCALE = 0.002;
/** RETRY_DELAYS_SECS of the dispatcher (30 s, 5 min, 30 min): the delays before attempts 2, 3 and 4. */
const DELAYS_BEFORE_FOURTH_SECS = (30 + 300 + 1800) * RETRY_SCALE;

interface Answer {
  id: string;
  phase: string;
  status: number;
  ms: number;
  contentType: string;
  body: string;
}

/** Signed success events with unique ids from a few concurrent workers; every answer is kept with its phase. */
class EventStream {
  readonly answers: Answer[] = [];
  phase = 'baseline';
  private seq = 0;
  private running = false;
  private workers: Promise<void>[] = [];
  private readonly agent = new Agent({ connections: 16 });

  constructor(private readonly restOrigin: string) {}

  close(): Promise<void> {
    return this.agent.close();
  }

  async send(id: string): Promise<Answer> {
    const event = demoBankEventRequest({
      external_event_id: id,
      event_type: 'transaction.success',
      gross_amount: 25_000,
      transaction_code: `TRX-${id}`,
    });
    const started = Date.now();
    const phase = this.phase;
    try {
      const res = await request(`${this.restOrigin}/psp/v1/events`, {
        method: 'POST',
        headers: event.headers,
        body: event.payload,
        dispatcher: this.agent,
        headersTimeout: ANSWER_LIMIT_MS + 5000,
        bodyTimeout: ANSWER_LIMIT_MS + 5000,
      });
      const answer = {
        id,
        phase,
        status: res.statusCode,
        ms: Date.now() - started,
        contentType: String(res.headers['content-type'] ?? ''),
        body: await res.body.text(),
      };
      this.answers.push(answer);
      return answer;
    } catch (error) {
      const answer = { id, phase, status: 0, ms: Date.now() - started, contentType: '', body: String((error as Error).message) };
      this.answers.push(answer);
      return answer;
    }
  }

  start(workers = 4): void {
    this.running = true;
    this.workers = Array.from({ length: workers }, async () => {
      while (this.running) {
        this.seq += 1;
        const answer = await this.send(`res-${this.seq}`);
        // A bank backs off when refused; a tight loop of instant 503s would only measure the loop.
        await sleep(answer.status === 200 ? 15 : 100);
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Waits until a new event is answered 200; returns how long that took. */
  async recovered(): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < RECOVERY_LIMIT_MS) {
      const tail = this.answers.slice(-4);
      if (tail.length === 4 && tail.every((a) => a.status === 200 && a.phase === this.phase)) return Date.now() - started;
      await sleep(100);
    }
    throw new Error(`no recovery within ${RECOVERY_LIMIT_MS} ms (${this.phase}); last answers: ${JSON.stringify(this.answers.slice(-3))}`);
  }

  inPhase(phase: string): Answer[] {
    return this.answers.filter((a) => a.phase === phase);
  }
}

describe('resilience: kill -9 and database restarts under streaming bank events', () => {
  let db: ProcessTestDatabase;
  let pg: PostgresProcess;
  let adminUrl: string;
  let config: Config;
  let stack: ProcessStack;
  let processes: Record<Tier, StackProcess>;
  let stream: EventStream;
  let receiver: WebhookReceiver;

  const pids = () => Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, p.pid]));
  const report = () => stack.report();

  beforeAll(async () => {
    // Its own embedded server, which the test restarts.
    db = await ProcessTestDatabase.create('qris-resilience', { embedded: true });
    pg = db.postgres!;
    adminUrl = db.adminUrl;
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: adminUrl });

    receiver = new WebhookReceiver(await freePort());
    const endpoint = await setBankWebhook(config, adminUrl, { bankCode: DEMO.bank.code, url: `http://127.0.0.1:${receiver.port}/hooks` });
    receiver.setSecret(endpoint.webhook_secret);

    stack = await ProcessStack.start(adminUrl, {
      env: { GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS), JOBS_POLL_INTERVAL_MS: '100', WEBHOOK_RETRY_SCALE: String(RETRY_SCALE) },
    });
    processes = Object.fromEntries(Object.entries(stack.copies).map(([tier, copies]) => [tier, copies[0]])) as Record<Tier, StackProcess>;
    stream = new EventStream(stack.restOrigin);
  }, 170_000);

  afterAll(async () => {
    await stream?.stop();
    await stream?.close();
    await stack?.stop();
    await receiver?.down();
    await db?.drop();
  });

  /** During an outage: only 200 (requests finished before the fault) or the 503 error body, each within the limit. */
  function expectCleanOutage(phase: string): void {
    const answers = stream.inPhase(phase);
    expect(uncleanAnswers(answers, ANSWER_LIMIT_MS)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
  }

  async function outage(phase: string, fault: () => Promise<void>, repair: () => Promise<void>): Promise<number> {
    stream.phase = phase;
    await fault();
    await sleep(2500);
    stream.phase = `${phase}:recovery`;
    await repair();
    return stream.recovered();
  }

  it('streams events, survives each fault and recovers by restarting only what failed', async () => {
    stream.start();
    // A baseline first (2 s on a quiet machine; longer while another suite boots).
    await eventually('more than 10 baseline answers', async () => stream.inPhase('baseline').length > 10 || undefined, 30_000);
    const baseline = stream.inPhase('baseline');
    expect(baseline.length).toBeGreaterThan(10);
    expect(baseline.filter((a) => a.status !== 200)).toEqual([]);

    const before = pids();
    const recoveries: Record<string, number> = {};
    // The REST process runs the gateway's query plans and the subgraphs itself (REST_SUBGRAPHS=in-process,
    // docs/decisions/0009-how-operations-execute.md): the intake does not notice that the transaction
    // subgraph's process (its job worker), the outlet subgraph's, or the gateway process (which serves the GraphQL
    // clients) is gone.
    for (const tier of ['transaction', 'outlet', 'gateway'] as const) {
      stream.phase = `${tier}-killed`;
      await processes[tier].kill9();
      await sleep(2500);
      expect(stream.inPhase(`${tier}-killed`).length).toBeGreaterThan(10);
      expect(stream.inPhase(`${tier}-killed`).filter((a) => a.status !== 200)).toEqual([]);
      await processes[tier].start();
    }
    recoveries.postgres = await outage(
      'postgres-restarted',
      () => pg.stop(),
      () => pg.start(),
    );
    expectCleanOutage('postgres-restarted');
    await stream.stop();

    const after = pids();
    // Only the killed processes have new ids; PostgreSQL's restart needed no process restart.
    for (const name of ['merchant', 'catalog', 'rest'] as const) expect(after[name]).toBe(before[name]);
    expect(after.transaction).not.toBe(before.transaction);
    expect(after.outlet).not.toBe(before.outlet);
    expect(after.gateway).not.toBe(before.gateway);
    const refused = stream.answers.filter((a) => a.status === 503).length;
    process.stderr.write(
      `resilience: ${stream.answers.length} events sent, ${refused} answered 503; recovery after restart (ms): ${JSON.stringify(recoveries)}\n`,
    );
  });

  it('stores every event answered 200 exactly once, and a retried event never creates a second row', async () => {
    // A bank retries what was not answered 200 (psp-api.md): afterwards every event has its answer.
    const unanswered = [...new Set(stream.answers.filter((a) => a.status !== 200).map((a) => a.id))].filter(
      (id) => !stream.answers.some((a) => a.id === id && a.status === 200),
    );
    stream.phase = 'bank-retries';
    const retried: Answer[] = [];
    for (let i = 0; i < unanswered.length; i += 8)
      retried.push(...(await Promise.all(unanswered.slice(i, i + 8).map((id) => stream.send(id)))));
    expect(retried.filter((a) => a.status !== 200)).toEqual([]);

    const acknowledged = [...new Set(stream.answers.filter((a) => a.status === 200).map((a) => a.id))];
    const replays = await Promise.all(acknowledged.slice(0, 25).map((id) => stream.send(id)));
    expect(replays.map((a) => [a.status, (JSON.parse(a.body) as { status: string }).status])).toEqual(
      replays.map(() => [200, 'duplicate_skipped']),
    );

    const rows = await adminQuery<{ external_event_id: string; events: string; transactions: string }>(
      adminUrl,
      `select e.external_event_id, count(*) as events,
              (select count(*) from "transaction".transactions t where t.transaction_code = 'TRX-' || e.external_event_id) as transactions
         from "transaction".payment_events e
        where e.bank_code = $1 and e.external_event_id like 'res-%'
        group by e.external_event_id`,
      [DEMO.bank.code],
    );
    const stored = new Map(rows.map((r) => [r.external_event_id, r]));
    const missing = acknowledged.filter((id) => !stored.has(id));
    const duplicated = rows.filter((r) => Number(r.events) !== 1 || Number(r.transactions) !== 1);
    expect({ missing, duplicated }).toEqual({ missing: [], duplicated: [] });
    // Nothing was stored that the bank was never told about after its retries.
    expect(rows.length).toBe(acknowledged.length);
  });

  it('delivers every lifecycle webhook to a receiver that was down, then up, by the retry schedule', async () => {
    const moves = [
      { merchantId: DEMO.otherMerchants[0].id, targetStatus: 'suspended', reason: 'violation' },
      { merchantId: DEMO.otherMerchants[0].id, targetStatus: 'active' },
      { merchantId: DEMO.otherMerchants[1].id, targetStatus: 'suspended', reason: 'operator_action' },
      { merchantId: DEMO.otherMerchants[1].id, targetStatus: 'active' },
    ];
    const events: { event_id: string; event: string }[] = [];
    for (const move of moves) {
      const outcome = await changeMerchantStatus(config, adminUrl, move);
      expect(outcome.webhook).not.toBeNull();
      events.push({ event_id: outcome.webhook!.event_id, event: outcome.webhook!.event });
    }
    const ids = events.map((e) => e.event_id);
    const deliveries = () =>
      adminQuery<{ id: string; status: string; attempts: number; last_error: string | null; age_secs: string }>(
        adminUrl,
        `select id, status, attempts, last_error, extract(epoch from coalesce(delivered_at, now()) - created_at) as age_secs
           from merchant.webhook_deliveries where id = any($1::uuid[])`,
        [ids],
      );
    const waitFor = async (done: (rows: Awaited<ReturnType<typeof deliveries>>) => boolean, what: string) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const rows = await deliveries();
        if (rows.length === ids.length && done(rows)) return rows;
        await sleep(100);
      }
      throw new Error(`${what}: ${JSON.stringify(await deliveries())}\n${report()}`);
    };

    // Down: three attempts fail (connection refused), then the receiver comes up before the fourth.
    await waitFor((rows) => rows.every((r) => r.attempts >= 3), 'three failed attempts while the receiver is down');
    await receiver.up();
    const delivered = await waitFor((rows) => rows.every((r) => r.status === 'delivered'), 'delivery once the receiver is up');

    expect(delivered.map((r) => r.attempts)).toEqual(ids.map(() => 4));
    for (const row of delivered) expect(Number(row.age_secs)).toBeGreaterThanOrEqual(DELAYS_BEFORE_FOURTH_SECS * 0.95);
    expect(receiver.badSignatures).toBe(0);
    expect([...new Set(receiver.received.map((r) => r.eventId))].sort()).toEqual([...ids].sort());
    expect(receiver.received.map((r) => r.event).sort()).toEqual(events.map((e) => e.event).sort());
  });
});
