import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { type SecretBox, newSecret } from '@lib/crypto/secret-box';
import { BadInputError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { BankRepository } from '../bank/bank.repository';
import { type AttemptResult, WebhookAttempts, attemptJob, webhookSchedule } from './webhook-delivery';
import type { OutboundUrlPolicy } from './outbound-url';
import { WebhookSender } from './webhook-sender';
import { DELIVERY_STATUSES, type DeliveryStatus, TEST_EVENT, type TestEnvelope } from './webhook.entity';
import { type AttemptRow, type DeliveryRow, type EndpointState, WebhookRepository } from './webhook.repository';

export const MAX_DELIVERY_LIST = 500;

/** What operators see of a delivery (`webhook:deliveries`, `webhook:redeliver`). */
export interface DeliveryView {
  event_id: string;
  event: string;
  bank_code: string;
  merchant_id: string | null;
  status: DeliveryStatus;
  /** Automatic attempts made (manual and test ones are listed by `attempts`, not counted here). */
  attempts: number;
  /** RFC 3339, UTC. */
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  updated_at: string;
}

/** One attempt as operators see it (`webhook:attempts`). */
export interface AttemptView {
  attempt: number;
  kind: AttemptRow['kind'];
  schedule_no: number | null;
  started_at: string;
  latency_ms: number;
  status_code: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

/** A bank's endpoint as operators see it (`webhook:endpoint`). */
export interface EndpointView {
  bank_code: string;
  url: string;
  enabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** Enabling: the held deliveries that were given their next attempt. */
  resumed: number;
}

export interface InfoLog {
  info(obj: object, msg: string): void;
}

/**
 * Operator side of lifecycle webhooks (docs/decisions/0031-webhooks-and-job-queue.md): a bank's endpoint and secret, disabling
 * and enabling it, the outbox listing, every attempt of a delivery, redelivery, test events.
 */
export class WebhookService {
  private readonly repo: WebhookRepository;

  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
    private readonly policy: OutboundUrlPolicy,
  ) {
    this.repo = new WebhookRepository(em);
  }

  /**
   * Sets the bank's endpoint (one per bank) with a new signing secret, returned once and stored sealed.
   * Calling again replaces URL and secret: pending deliveries go to the new URL, signed with the new secret. The URL
   * must pass the outbound policy (https in production, no internal address in any spelling: outbound-url.ts).
   */
  async setEndpoint(bankCode: string, url: string): Promise<{ bank_code: string; url: string; webhook_secret: string }> {
    const bank = await this.repo.peer(BankRepository).byCode(bankCode);
    if (!bank) throw new BadInputError(`unknown bank ${bankCode}`);
    const { href } = this.policy.check(url);
    const secret = newSecret();
    const now = new Date();
    await this.repo.upsertEndpoint(bank.id, href, this.box.seal(secret), now);
    return { bank_code: bank.code, url: href, webhook_secret: secret };
  }

  /**
   * Disables the bank's endpoint (its deliveries are held: not attempted, not lost) or enables it (every held
   * delivery gets its next automatic attempt now, in the same transaction). Idempotent.
   */
  async setEndpointEnabled(bankCode: string, enabled: boolean, reason?: string | null, log?: InfoLog): Promise<EndpointView> {
    const endpoint = await this.endpoint(bankCode);
    const resumed = await this.repo.sqlTransaction(async (tx) => {
      if (!enabled) {
        if (!endpoint.disabled_at) await tx.setDisabled(endpoint.bank_id, new Date(), reason?.trim().slice(0, 500) || null);
        return 0;
      }
      await tx.setDisabled(endpoint.bank_id, null, null);
      const held = await tx.releaseHeld(endpoint.bank_id);
      await tx.enqueue(held.map((d) => attemptJob(d.id, 'automatic', d.attempts + 1)));
      return held.length;
    });
    const view = { ...toEndpointView(await this.endpoint(bankCode)), resumed };
    log?.info({ bank_code: view.bank_code, enabled, resumed }, enabled ? 'webhook endpoint enabled' : 'webhook endpoint disabled');
    return view;
  }

  /** Newest first, of live banks (or of sandbox ones, docs/decisions/0015-demo-data-and-sandbox.md); optionally one status and/or one bank. */
  async listDeliveries(filter: { status?: string; bankCode?: string; limit?: number; sandbox?: boolean } = {}): Promise<DeliveryView[]> {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIST)
      throw new BadInputError(`limit must be between 1 and ${MAX_DELIVERY_LIST}`);
    if (filter.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(filter.status)) {
      throw new BadInputError(`status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    return (await this.repo.listDeliveries({ status: filter.status, bankCode: filter.bankCode, limit, sandbox: filter.sandbox })).map(
      toView,
    );
  }

  /** Every attempt of a delivery, oldest first (automatic, manual and test). */
  async attempts(eventId: string): Promise<AttemptView[]> {
    if (!UUID_PATTERN.test(eventId) || !(await this.repo.deliveryById(eventId))) throw new NotFoundError('delivery');
    return (await this.repo.attemptsOf(eventId)).map(toAttemptView);
  }

  /**
   * Sends a delivery again: one manual attempt, queued now, that leaves the automatic schedule where it is (a pending
   * delivery still gets its remaining automatic attempts; a failed one stays failed if this one fails too). Banks
   * de-duplicate by event_id. Refused while the endpoint is disabled (enable it: held deliveries resume).
   */
  async redeliver(eventId: string, log?: InfoLog): Promise<DeliveryView> {
    if (!UUID_PATTERN.test(eventId)) throw new NotFoundError('delivery');
    // The delivery as queued, read before the commit: the job may deliver it as soon as the transaction commits.
    const queued = await this.repo.sqlTransaction(async (tx) => {
      const target = await tx.attemptTarget(eventId);
      if (!target) return null;
      if (target.disabled) throw new BadInputError(`the webhook endpoint of ${target.bank_code} is disabled: enable it first`);
      await tx.markRedelivery(eventId);
      await tx.enqueue([attemptJob(eventId, 'manual')]);
      return tx.deliveryById(eventId);
    });
    if (!queued) throw new NotFoundError('delivery');
    const delivery = toView(queued);
    log?.info(
      { event_id: delivery.event_id, event: delivery.event, bank_code: delivery.bank_code, attempts: delivery.attempts },
      'webhook redelivery requested',
    );
    return delivery;
  }

  /**
   * A `webhook.test` event to the bank's endpoint, signed like the lifecycle ones, sent now (this request waits for
   * the answer, at most 10 s) whether the endpoint is enabled or not: how an operator checks an endpoint before
   * enabling it. Recorded as a delivery with one `test` attempt; never retried.
   */
  async sendTest(bankCode: string, log?: InfoLog): Promise<AttemptResult> {
    const endpoint = await this.endpoint(bankCode);
    const id = uuidv7();
    const now = new Date();
    const payload: TestEnvelope = { event_id: id, event: TEST_EVENT, occurred_at: now.toISOString(), merchant: null, change: null };
    this.repo.createDelivery({
      id,
      bankId: endpoint.bank_id,
      merchantId: null,
      event: TEST_EVENT,
      payload,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await this.repo.flush();
    const sender = new WebhookSender(this.policy);
    try {
      const attempts = new WebhookAttempts(this.em, this.box, sender, webhookSchedule(1), { info: () => {}, warn: () => {} });
      const result = await attempts.sendNow(id);
      log?.info({ event_id: id, bank_code: endpoint.bank_code, status_code: result.status_code, error: result.error }, 'webhook test sent');
      return result;
    } finally {
      await sender.close();
    }
  }

  private async endpoint(bankCode: string): Promise<EndpointState> {
    const endpoint = await this.repo.endpointState(bankCode);
    if (!endpoint) {
      if (!(await this.repo.peer(BankRepository).byCode(bankCode))) throw new BadInputError(`unknown bank ${bankCode}`);
      throw new BadInputError(`bank ${bankCode} has no webhook endpoint (set one with bank:webhook)`);
    }
    return endpoint;
  }
}

const iso = (value: string | Date) => new Date(value).toISOString();

function toView(row: DeliveryRow): DeliveryView {
  return {
    ...row,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at),
    delivered_at: row.delivered_at === null ? null : iso(row.delivered_at),
    updated_at: iso(row.updated_at),
  };
}

function toAttemptView(row: AttemptRow): AttemptView {
  return { ...row, started_at: iso(row.started_at), next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at) };
}

function toEndpointView(e: EndpointState): Omit<EndpointView, 'resumed'> {
  return {
    bank_code: e.bank_code,
    url: e.url,
    enabled: e.disabled_at === null,
    disabled_at: e.disabled_at === null ? null : iso(e.disabled_at),
    disabled_reason: e.disabled_reason,
  };
}
