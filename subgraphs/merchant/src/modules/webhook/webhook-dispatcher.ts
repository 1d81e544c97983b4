import { createHmac } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { Agent, request } from 'undici';
import type { SecretBox } from '@lib/crypto/secret-box';

/** Delays before attempts 2, 3, 4 and 5 (psp-api.md §6, DESIGN.md §6), in seconds. */
export const RETRY_DELAYS_SECS = [30, 5 * 60, 30 * 60, 2 * 60 * 60] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECS.length + 1;
/** The bank answers within 10 s, or the attempt failed (psp-api.md §6). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DispatcherLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WebhookDispatcherOptions {
  /** The merchant subgraph's connection (its own role). */
  knex: Knex;
  box: SecretBox;
  log: DispatcherLog;
  /** Multiplies RETRY_DELAYS_SECS (WEBHOOK_RETRY_SCALE). */
  retryScale?: number;
  timeoutMs?: number;
  /** Sends in flight at once in this process. */
  concurrency?: number;
  /** Sends in flight at once per bank in this process, so that one slow receiver cannot take every slot. */
  perBankConcurrency?: number;
  /**
   * How long a claimed delivery stays invisible to other dispatchers. Longer than a send can take; if this
   * process dies mid-send, the delivery is due again after it (at least once: banks de-duplicate by event_id).
   */
  leaseSecs?: number;
  /** Called once per delivery that failed its last attempt (the process counts them in its metrics). */
  onFailed?: (bankCode: string) => void;
}

interface Claimed {
  id: string;
  bank_id: string;
  event: string;
  attempts: number;
  /** The stored envelope as PostgreSQL renders it: the same bytes on every attempt. */
  body: string;
}

interface Target {
  bankCode: string;
  url: string | null;
  secretSealed: string | null;
}

type Outcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

/**
 * Delivers the lifecycle webhook outbox. Claims due deliveries in short transactions (`for update skip
 * locked`, then a lease), so any number of dispatchers, in any number of processes, share the work and
 * each attempt is made once; sends outside any transaction, concurrently up to a cap, each bounded by a
 * timeout; records the outcome: delivered on 2xx, else the next attempt by the retry schedule, failed
 * after the last one.
 */
export class WebhookDispatcher {
  private readonly knex: Knex;
  private readonly box: SecretBox;
  private readonly log: DispatcherLog;
  private readonly retryScale: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly perBankConcurrency: number;
  private readonly leaseSecs: number;
  private readonly onFailed?: (bankCode: string) => void;
  private readonly agent: Agent;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly inFlightPerBank = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(options: WebhookDispatcherOptions) {
    this.knex = options.knex;
    this.box = options.box;
    this.log = options.log;
    this.retryScale = options.retryScale ?? 1;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 8;
    this.perBankConcurrency = options.perBankConcurrency ?? 2;
    this.leaseSecs = options.leaseSecs ?? 60;
    this.onFailed = options.onFailed;
    if (this.leaseSecs * 1000 <= this.timeoutMs * 2) throw new Error('the lease must be well above the send timeout');
    this.agent = new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
  }

  /** Polls every `intervalMs` (at once again while there is a backlog and free slots) until stop(). */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    const tick = async () => {
      this.timer = null;
      if (this.stopped) return;
      let full = false;
      try {
        const free = this.freeSlots();
        full = free > 0 && (await this.dispatchDue()) === free;
      } catch (error) {
        this.log.error({ err: error }, 'webhook dispatch round failed');
      }
      if (this.stopped) return;
      this.timer = setTimeout(() => (this.ticking = tick()), full ? 0 : intervalMs);
      this.timer.unref();
    };
    this.ticking = tick();
  }

  /** Stops claiming, waits for the sends in flight to be recorded, closes the HTTP agent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await this.idle();
    await this.agent.close();
  }

  /** Claims as many due deliveries as there are free slots and starts sending them; returns how many. */
  async dispatchDue(): Promise<number> {
    const free = this.freeSlots();
    if (free <= 0 || this.stopped) return 0;
    const claimed = await this.claim(free);
    if (claimed.length === 0) return 0;
    for (const delivery of claimed) this.inFlightPerBank.set(delivery.bank_id, (this.inFlightPerBank.get(delivery.bank_id) ?? 0) + 1);
    let targets: Map<string, Target>;
    try {
      targets = await this.targets([...new Set(claimed.map((d) => d.bank_id))]);
    } catch (error) {
      for (const delivery of claimed) this.release(delivery);
      throw error;
    }
    for (const delivery of claimed) {
      const sending = this.deliver(delivery, targets.get(delivery.bank_id))
        .catch((error: unknown) => this.log.error({ err: error, event_id: delivery.id }, 'webhook delivery could not be recorded'))
        .finally(() => {
          this.inFlight.delete(delivery.id);
          this.release(delivery);
        });
      this.inFlight.set(delivery.id, sending);
    }
    return claimed.length;
  }

  /** Resolves when every send started so far has been recorded. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  /** One round: claim, send and record (tests and tools). */
  async runOnce(): Promise<number> {
    const claimed = await this.dispatchDue();
    await this.idle();
    return claimed;
  }

  private freeSlots(): number {
    return this.concurrency - this.inFlight.size;
  }

  private release(delivery: Claimed): void {
    const left = (this.inFlightPerBank.get(delivery.bank_id) ?? 1) - 1;
    if (left > 0) this.inFlightPerBank.set(delivery.bank_id, left);
    else this.inFlightPerBank.delete(delivery.bank_id);
  }

  /**
   * One short transaction: lock due rows other dispatchers have not locked, keep up to `limit` of them within
   * the per-bank cap, and lease those (due again only after the lease). Rows locked but not kept are
   * released unchanged at commit.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const banksAtCap = [...this.inFlightPerBank].filter(([, n]) => n >= this.perBankConcurrency).map(([bankId]) => bankId);
    return this.knex.transaction(async (trx) => {
      const candidates: { id: string; bank_id: string }[] = await trx('merchant.webhook_deliveries')
        .select('id', 'bank_id')
        .where('status', 'pending')
        .where('next_attempt_at', '<=', trx.fn.now())
        .whereNotIn('bank_id', banksAtCap)
        .orderBy([{ column: 'next_attempt_at' }, { column: 'id' }])
        .limit(limit * 4)
        .forUpdate()
        .skipLocked();
      const perBank = new Map(this.inFlightPerBank);
      const picked: string[] = [];
      for (const candidate of candidates) {
        if (picked.length >= limit) break;
        const n = perBank.get(candidate.bank_id) ?? 0;
        if (n >= this.perBankConcurrency) continue;
        perBank.set(candidate.bank_id, n + 1);
        picked.push(candidate.id);
      }
      if (picked.length === 0) return [];
      const leased = await trx.raw(
        `update merchant.webhook_deliveries set next_attempt_at = now() + ? * interval '1 second', updated_at = now()
          where id = any(?::uuid[])
          returning id, bank_id, event, attempts, payload::text as body`,
        [this.leaseSecs, `{${picked.join(',')}}`],
      );
      return leased.rows as Claimed[];
    });
  }

  /** The current endpoint of each bank: a URL or secret changed since the event was written applies. */
  private async targets(bankIds: string[]): Promise<Map<string, Target>> {
    const rows: { id: string; code: string; url: string | null; secret_sealed: string | null }[] = await this.knex('merchant.banks as b')
      .leftJoin('merchant.bank_webhook_endpoints as e', 'e.bank_id', 'b.id')
      .whereIn('b.id', bankIds)
      .select('b.id', 'b.code', 'e.url', 'e.secret_sealed');
    return new Map(rows.map((r) => [r.id, { bankCode: r.code, url: r.url, secretSealed: r.secret_sealed }]));
  }

  private async deliver(delivery: Claimed, target: Target | undefined): Promise<void> {
    const outcome: Outcome =
      target?.url && target.secretSealed
        ? await this.send(delivery, target.url, this.box.open(target.secretSealed))
        : { ok: false, statusCode: null, error: 'the bank has no webhook endpoint' };
    await this.record(delivery, outcome, target?.bankCode ?? delivery.bank_id);
  }

  /** One POST of the stored body, signed at send time (DESIGN.md §4), bounded by the timeout. */
  private async send(delivery: Claimed, url: string, secret: string): Promise<Outcome> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex');
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'qris-merchant-webhooks/1',
          'x-service-event-id': delivery.id,
          'x-service-timestamp': timestamp,
          'x-service-signature': `sha256=${signature}`,
        },
        body: delivery.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, statusCode: response.statusCode };
      return { ok: false, statusCode: response.statusCode, error: `HTTP ${response.statusCode}` };
    } catch (error) {
      return { ok: false, statusCode: null, error: describeSendError(error, this.timeoutMs) };
    }
  }

  /**
   * The outcome of the attempt the claim counted on (`attempts` unchanged since): a delivery redelivered or
   * recorded by someone else meanwhile is left as it is.
   */
  private async record(delivery: Claimed, outcome: Outcome, bankCode: string): Promise<void> {
    const attempt = delivery.attempts + 1;
    const context = { event_id: delivery.id, event: delivery.event, bank_code: bankCode, attempt };
    if (outcome.ok) {
      await this.knex('merchant.webhook_deliveries').where({ id: delivery.id, status: 'pending', attempts: delivery.attempts }).update({
        status: 'delivered',
        attempts: attempt,
        delivered_at: this.knex.fn.now(),
        last_status_code: outcome.statusCode,
        last_error: null,
        updated_at: this.knex.fn.now(),
      });
      this.log.info({ ...context, status_code: outcome.statusCode }, 'webhook delivered');
      return;
    }
    const final = attempt >= MAX_ATTEMPTS;
    const delaySecs = final ? 0 : RETRY_DELAYS_SECS[attempt - 1] * this.retryScale;
    const updated = await this.knex('merchant.webhook_deliveries')
      .where({ id: delivery.id, status: 'pending', attempts: delivery.attempts })
      .update({
        status: final ? 'failed' : 'pending',
        attempts: attempt,
        ...(final ? {} : { next_attempt_at: this.knex.raw(`now() + ? * interval '1 second'`, [delaySecs]) }),
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        updated_at: this.knex.fn.now(),
      });
    if (updated === 0) return;
    if (final) {
      // Operators notify the bank's technical contact (psp-api.md §6): this line is what they alert on.
      this.log.error(
        { ...context, status_code: outcome.statusCode, error: outcome.error },
        'webhook delivery failed after the last attempt',
      );
      this.onFailed?.(context.bank_code);
    } else {
      this.log.warn(
        { ...context, status_code: outcome.statusCode, error: outcome.error, retry_in_secs: delaySecs },
        'webhook delivery attempt failed',
      );
    }
  }
}

function describeSendError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string };
  if (
    e.name === 'TimeoutError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  return `${e.code ?? e.name ?? 'Error'}: ${e.message ?? String(error)}`.slice(0, 500);
}
