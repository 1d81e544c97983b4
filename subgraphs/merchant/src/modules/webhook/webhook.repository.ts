import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';
import { BankWebhookEndpoint, type DeliveryStatus, WebhookDelivery } from './webhook.entity';

type Timestamp = string | Date;

/** A delivery as listed (plain row: bank code joined, timestamps as the driver returns them). */
export interface DeliveryRow {
  event_id: string;
  event: string;
  bank_code: string;
  merchant_id: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  updated_at: Timestamp;
}

/** A delivery with what an attempt needs: the stored body as sent, the bank's current endpoint. */
export interface AttemptTarget {
  id: string;
  bank_id: string;
  bank_code: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  delivered: boolean;
  /** The stored envelope as PostgreSQL renders it: the same bytes on every attempt. */
  body: string;
  url: string | null;
  secret_sealed: string | null;
  disabled: boolean;
}

/** One attempt as recorded (plain row). */
export interface AttemptRow {
  attempt: number;
  kind: 'automatic' | 'manual' | 'test';
  schedule_no: number | null;
  started_at: Timestamp;
  latency_ms: number;
  status_code: number | null;
  error: string | null;
  next_attempt_at: Timestamp | null;
}

export interface NewAttempt {
  deliveryId: string;
  kind: AttemptRow['kind'];
  scheduleNo: number | null;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

export interface EndpointState {
  bank_id: string;
  bank_code: string;
  url: string;
  disabled_at: Timestamp | null;
  disabled_reason: string | null;
}

/**
 * Lifecycle webhooks (`merchant.bank_webhook_endpoints`, `merchant.webhook_deliveries`, `merchant.webhook_attempts`):
 * the outbox a lifecycle change writes to in its unit of work, the attempts the job handler records
 * (webhook-delivery.ts), and the operators' side.
 */
export class WebhookRepository extends Repository {
  endpointOf(bankId: string): Promise<BankWebhookEndpoint | null> {
    return this.em.findOne(BankWebhookEndpoint, { bankId });
  }

  /** A new delivery in the outbox, written by the next flush (so it commits with the change it announces). */
  createDelivery(data: RequiredEntityData<WebhookDelivery>): WebhookDelivery {
    return this.em.create(WebhookDelivery, data);
  }

  /** Jobs on this repository's connection: in its transaction when it has one (`sqlTransaction`, `transactional`). */
  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }

  /** Sets the bank's endpoint (one per bank), replacing URL and sealed secret; disabled stays disabled. */
  async upsertEndpoint(bankId: string, url: string, secretSealed: string, now: Date): Promise<void> {
    await this.db('merchant.bank_webhook_endpoints')
      .insert({ bank_id: bankId, url, secret_sealed: secretSealed, created_at: now, updated_at: now })
      .onConflict('bank_id')
      .merge(['url', 'secret_sealed', 'updated_at']);
  }

  async endpointState(bankCode: string): Promise<EndpointState | undefined> {
    const [row] = await this.rows<EndpointState>(
      `select b.id as bank_id, b.code as bank_code, e.url, e.disabled_at, e.disabled_reason
       from merchant.banks b join merchant.bank_webhook_endpoints e on e.bank_id = b.id where b.code = ?`,
      [bankCode],
    );
    return row;
  }

  /**
   * Disables (a time) or enables (null) the endpoint; inside `sqlTransaction`, the row stays locked until commit, so
   * an attempt deciding to hold its delivery (`holdIfDisabled`) runs wholly before or wholly after.
   */
  async setDisabled(bankId: string, at: Date | null, reason: string | null): Promise<void> {
    await this.rows(
      `update merchant.bank_webhook_endpoints set disabled_at = ?, disabled_reason = ?, updated_at = now() where bank_id = ?`,
      [at, reason, bankId],
    );
  }

  /** The bank's held deliveries back to pending, due now; their ids and automatic attempts so far. */
  releaseHeld(bankId: string): Promise<{ id: string; attempts: number }[]> {
    return this.rows(
      `update merchant.webhook_deliveries set status = 'pending', next_attempt_at = now(), updated_at = now()
       where bank_id = ? and status = 'held' returning id, attempts`,
      [bankId],
    );
  }

  /**
   * Inside `sqlTransaction`: when the delivery's endpoint is disabled, the delivery is held (attempted again only
   * once enabled) and true answered. The endpoint row is read `for share`, so an enable in progress is waited for.
   */
  async holdIfDisabled(deliveryId: string, bankId: string): Promise<boolean> {
    const [endpoint] = await this.rows<{ disabled: boolean }>(
      `select disabled_at is not null as disabled from merchant.bank_webhook_endpoints where bank_id = ? for share`,
      [bankId],
    );
    if (!endpoint?.disabled) return false;
    await this.rows(`update merchant.webhook_deliveries set status = 'held', updated_at = now() where id = ? and status = 'pending'`, [
      deliveryId,
    ]);
    return true;
  }

  /** The delivery and its bank's current endpoint (a URL or secret changed since the event was written applies). */
  async attemptTarget(deliveryId: string): Promise<AttemptTarget | undefined> {
    const [row] = await this.rows<AttemptTarget>(
      `select d.id, d.bank_id, b.code as bank_code, d.event, d.status, d.attempts, d.delivered_at is not null as delivered,
              d.payload::text as body, e.url, e.secret_sealed, e.disabled_at is not null as disabled
       from merchant.webhook_deliveries d join merchant.banks b on b.id = d.bank_id
       left join merchant.bank_webhook_endpoints e on e.bank_id = d.bank_id
       where d.id = ?`,
      [deliveryId],
    );
    return row;
  }

  async insertAttempt(a: NewAttempt): Promise<void> {
    await this.rows(
      `insert into merchant.webhook_attempts (delivery_id, kind, schedule_no, started_at, latency_ms, status_code, error,
         next_attempt_at) values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [a.deliveryId, a.kind, a.scheduleNo, a.startedAt, a.latencyMs, a.statusCode, a.error, a.nextAttemptAt],
    );
  }

  /**
   * The outcome of automatic attempt `attempt`, if the delivery is still where that attempt found it (pending, with
   * attempt − 1 attempts): a 2xx delivers it; else it stays pending until `nextAttemptAt`, or fails without one.
   * Answers whether it was recorded (false: another attempt or a redelivery changed it meanwhile).
   */
  async recordAutomatic(
    deliveryId: string,
    attempt: number,
    outcome: { ok: boolean; statusCode: number | null; error: string | null },
    nextAttemptAt: Date | null,
  ): Promise<boolean> {
    const rows = await this.rows(
      `update merchant.webhook_deliveries set
         status = case when ? then 'delivered' when ?::timestamptz is null then 'failed' else 'pending' end,
         attempts = ?, next_attempt_at = coalesce(?::timestamptz, next_attempt_at),
         delivered_at = case when ? then now() else delivered_at end,
         last_status_code = ?, last_error = ?, updated_at = now()
       where id = ? and status = 'pending' and attempts = ? returning id`,
      [outcome.ok, nextAttemptAt, attempt, nextAttemptAt, outcome.ok, outcome.statusCode, outcome.error, deliveryId, attempt - 1],
    );
    return rows.length > 0;
  }

  /**
   * The outcome of a manual or test attempt: a 2xx delivers it; otherwise it is back where the automatic schedule
   * has it (delivered once, failed after the last automatic attempt, else pending). Its automatic attempts are kept.
   */
  async recordExtra(deliveryId: string, outcome: { ok: boolean; statusCode: number | null; error: string | null }, maxAttempts: number) {
    await this.rows(
      `update merchant.webhook_deliveries set
         status = case when ? or delivered_at is not null then 'delivered' when attempts >= ? or event = 'webhook.test' then 'failed'
                       when status = 'held' then 'held' else 'pending' end,
         delivered_at = case when ? then coalesce(delivered_at, now()) else delivered_at end,
         last_status_code = ?, last_error = ?, updated_at = now()
       where id = ?`,
      [outcome.ok, maxAttempts, outcome.ok, outcome.statusCode, outcome.error, deliveryId],
    );
  }

  /** A manual attempt is on its way: the delivery is pending until it is recorded; 0 when there is no such delivery. */
  async markRedelivery(id: string): Promise<number> {
    const rows = await this.rows(
      `update merchant.webhook_deliveries set status = 'pending', updated_at = now() where id = ? returning id`,
      [id],
    );
    return rows.length;
  }

  /** Every attempt of a delivery, oldest first, numbered. */
  attemptsOf(deliveryId: string): Promise<AttemptRow[]> {
    return this.rows<AttemptRow>(
      `select row_number() over (order by id)::int as attempt, kind, schedule_no, started_at, latency_ms, status_code, error,
              next_attempt_at
       from merchant.webhook_attempts where delivery_id = ? order by id`,
      [deliveryId],
    );
  }

  /** Deliveries newest first, of live banks (or of sandbox ones), optionally of one status and/or one bank. */
  listDeliveries(filter: { status?: string; bankCode?: string; limit: number; sandbox?: boolean }): Promise<DeliveryRow[]> {
    const query = this.deliveries()
      .where('b.sandbox', filter.sandbox ?? false)
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(filter.limit);
    if (filter.status) query.where('d.status', filter.status);
    if (filter.bankCode) query.where('b.code', filter.bankCode);
    return query as Promise<DeliveryRow[]>;
  }

  async deliveryById(id: string): Promise<DeliveryRow | undefined> {
    const [row] = (await this.deliveries().where('d.id', id)) as DeliveryRow[];
    return row;
  }

  private deliveries() {
    return this.db('merchant.webhook_deliveries as d')
      .join('merchant.banks as b', 'b.id', 'd.bank_id')
      .select(
        'd.id as event_id',
        'd.event',
        'b.code as bank_code',
        'd.merchant_id',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_status_code',
        'd.last_error',
        'd.created_at',
        'd.delivered_at',
        'd.updated_at',
      );
  }
}
