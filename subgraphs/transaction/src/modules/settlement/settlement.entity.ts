import { BigIntType, Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/**
 * A bank's settlement of one NMID for one business day, as delivered, with what it matched. Unique per bank
 * by settlement_id and by external_event_id: a replay of either is a duplicate.
 */
@Entity({ tableName: 'settlements' })
@Unique({ properties: ['bankCode', 'settlementId'] })
@Unique({ properties: ['bankCode', 'externalEventId'] })
export class Settlement {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  bankCode!: string;

  @Property({ type: 'text' })
  externalEventId!: string;

  @Property({ type: 'text' })
  settlementId!: string;

  @Property({ type: 'text' })
  nmid!: string;

  @Property({ type: 'uuid', nullable: true })
  merchantId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  outletId?: string | null;

  @Property({ type: new BigIntType('number') })
  grossAmount!: number;

  @Property({ type: new BigIntType('number') })
  mdrTotal!: number;

  @Property({ type: new BigIntType('number') })
  netAmount!: number;

  /** A business date in Asia/Jakarta, YYYY-MM-DD. */
  @Property({ type: 'date' })
  settlementDate!: string;

  @Property({ type: 'datetime' })
  completedAt!: Date;

  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'text' })
  status!: 'success' | 'rejected';

  @Property({ type: 'text', nullable: true })
  errorCode?: string | null;

  @Property({ type: 'integer' })
  matchedCount: number = 0;

  /** Sum of gross_amount of the transactions it settled. */
  @Property({ type: new BigIntType('number') })
  matchedAmount: number = 0;

  @Property({ type: 'datetime' })
  receivedAt!: Date;
}
