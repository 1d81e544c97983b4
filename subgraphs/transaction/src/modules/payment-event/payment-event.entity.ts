import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';

export const EVENT_STATUSES = ['success', 'rejected'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * One payment event exactly as a bank delivered it (the inbox), whether or not it could be applied;
 * (bank_code, external_event_id) is unique, which is what makes replays harmless.
 */
@Entity({ tableName: 'payment_events' })
@Unique({ properties: ['bankCode', 'externalEventId'] })
export class PaymentEvent {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** From the bank principal, never from the body. */
  @Property({ type: 'text' })
  bankCode!: string;

  @Property({ type: 'text' })
  externalEventId!: string;

  @Property({ type: 'text' })
  eventType!: string;

  /** The request body as received. */
  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'text' })
  nmid!: string;

  @Property({ type: 'uuid', nullable: true })
  merchantId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  outletId?: string | null;

  /** The merchant had more than one live outlet when the event arrived (the answer then names the outlet). */
  @Property({ type: 'boolean' })
  multiOutlet: boolean = false;

  @Property({ type: 'uuid', nullable: true })
  terminalId?: string | null;

  /** The transaction created, refunded or reversed. */
  @Property({ type: 'uuid', nullable: true })
  transactionId?: string | null;

  @Property({ type: 'text' })
  status!: EventStatus;

  @Property({ type: 'text' })
  flow!: string;

  @Property({ type: 'text', nullable: true })
  errorCode?: string | null;

  /** False only while an accepted nmid.status_changed waits for the adapter to apply it in the outlet subgraph. */
  @Property({ type: 'boolean' })
  applied!: boolean;

  @Property({ type: 'datetime', nullable: true })
  appliedAt?: Date | null;

  @Property({ type: 'datetime' })
  receivedAt!: Date;
}
