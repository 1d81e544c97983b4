import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export const WEBHOOK_EVENTS = [
  'merchant.activated',
  'merchant.suspended',
  'merchant.reactivated',
  'merchant.terminated',
  'merchant.profile_updated',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** An operator's test event (docs/api/bank.md "Lifecycle webhooks"): signed as the others, no merchant. */
export const TEST_EVENT = 'webhook.test';
export type DeliveryEvent = WebhookEvent | typeof TEST_EVENT;

/**
 * pending: an attempt is to come (or a manual one is queued); held: the bank's endpoint is disabled, nothing is
 * attempted until it is enabled; delivered: an attempt got a 2xx; failed: the automatic schedule ended without one.
 */
export const DELIVERY_STATUSES = ['pending', 'held', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Where a bank receives lifecycle webhooks: one endpoint per bank; the HMAC secret is sealed (SecretBox). */
@Entity({ tableName: 'bank_webhook_endpoints' })
export class BankWebhookEndpoint {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid', fieldName: 'bank_id' })
  bankId!: string;

  @Property({ type: 'text' })
  url!: string;

  @Property({ type: 'text' })
  secretSealed!: string;

  /** Set while an operator has disabled the endpoint: its deliveries are held. */
  @Property({ type: 'datetime', nullable: true })
  disabledAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  disabledReason?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

/**
 * One lifecycle webhook in the transactional outbox: written in the same transaction as the change it announces,
 * with the job of its first attempt (webhook-delivery.job.ts). `id` is the envelope's event_id; `payload` is the
 * envelope, sent as stored on every attempt; `attempts` counts the automatic ones (the schedule's position).
 */
@Entity({ tableName: 'webhook_deliveries' })
export class WebhookDelivery {
  [OptionalProps]?: 'status' | 'attempts' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'uuid' })
  bankId!: string;

  /** Null for a test event. */
  @Property({ type: 'uuid', nullable: true })
  merchantId!: string | null;

  @Property({ type: 'text' })
  event!: DeliveryEvent;

  @Property({ type: 'json' })
  payload!: WebhookEnvelope | TestEnvelope;

  @Property({ type: 'text' })
  status: DeliveryStatus = 'pending';

  @Property({ type: 'integer' })
  attempts: number = 0;

  @Property({ type: 'datetime' })
  nextAttemptAt!: Date;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  deliveredAt?: Date | null;

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

/** The lifecycle webhook body (psp-api.md §2). */
export interface WebhookEnvelope {
  event_id: string;
  event: WebhookEvent;
  occurred_at: string;
  merchant: EnvelopeMerchant | TerminatedEnvelopeMerchant;
  change: WebhookChange;
}

/** The test event's body: the envelope's fields, with no merchant and no change. */
export interface TestEnvelope {
  event_id: string;
  event: typeof TEST_EVENT;
  occurred_at: string;
  merchant: null;
  change: null;
}

/** Status in the bank's view: draft and inactive are both `inactive` (DESIGN.md §9). */
export type BankMerchantStatus = 'inactive' | 'active' | 'suspended' | 'deleted';

export interface EnvelopeMerchant {
  id: string;
  nmid: string | null;
  bank_code: string;
  merchant_name: string;
  legal_name: string | null;
  status: BankMerchantStatus;
  kyc_status: string;
  category_code: string | null;
  phone: string | null;
  address: { city: string | null; province: string | null; country: string };
  updated_at: string;
}

/** A terminated merchant is announced with its identity only. */
export type TerminatedEnvelopeMerchant = Pick<EnvelopeMerchant, 'id' | 'nmid' | 'bank_code' | 'status'>;

/** Scalar values for one field; for several fields at once, objects keyed by field name. */
export type ChangeValue = string | null | Record<string, string | null>;

export interface WebhookChange {
  field: string;
  old_value: ChangeValue;
  new_value: ChangeValue;
  reason: string;
}
