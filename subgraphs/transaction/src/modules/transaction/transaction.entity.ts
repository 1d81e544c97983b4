import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const TRANSACTION_STATUSES = ['success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const SETTLEMENT_STATUSES = ['unsettled', 'settled'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/**
 * A payment attributed to merchant + outlet (+ terminal), as a bank reported it. Money in whole rupiah
 * (bigint); `net_amount_after_mdr = gross_amount - mdr_fee_amount` always (a table constraint).
 */
@Entity({ tableName: 'transactions' })
export class Transaction {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'uuid', nullable: true })
  outletId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  terminalId?: string | null;

  /** The reporting bank; null only for rows written before event intake (demo data). */
  @Property({ type: 'text', nullable: true })
  bankCode?: string | null;

  @Property({ type: 'text', nullable: true })
  nmid?: string | null;

  /** Unique per bank. */
  @Property({ type: 'text' })
  transactionCode!: string;

  /** The bank's reference_number. */
  @Property({ type: 'text', nullable: true })
  externalReference?: string | null;

  @Property({ type: 'text', nullable: true })
  rrn?: string | null;

  @Property({ type: 'text' })
  status!: TransactionStatus;

  @Property({ type: new BigIntType('number') })
  grossAmount!: number;

  @Property({ type: 'text', nullable: true })
  payerBankCode?: string | null;

  @Property({ type: 'text', nullable: true })
  payerBankName?: string | null;

  @Property({ type: 'text', nullable: true })
  payerNameMasked?: string | null;

  @Property({ type: 'text' })
  paymentMethod: string = 'qris';

  @Property({ type: 'text' })
  currency: string = 'IDR';

  /** Decimal string, e.g. "0.0070". */
  @Property({ type: 'decimal', precision: 6, scale: 4 })
  mdrRate: string = '0.0000';

  @Property({ type: new BigIntType('number') })
  mdrFeeAmount: number = 0;

  @Property({ type: new BigIntType('number') })
  netAmountAfterMdr!: number;

  @Property({ type: new BigIntType('number') })
  mdrFeeBank: number = 0;

  @Property({ type: new BigIntType('number') })
  switchingFee: number = 0;

  @Property({ type: new BigIntType('number') })
  platformFee: number = 0;

  @Property({ type: new BigIntType('number') })
  refundedAmount: number = 0;

  @Property({ type: 'text' })
  settlementStatus: SettlementStatus = 'unsettled';

  @Property({ type: 'datetime', nullable: true })
  settledAt?: Date | null;

  /** The settlement (our id) that settled it. */
  @Property({ type: 'uuid', nullable: true })
  settlementRef?: string | null;

  @Property({ type: 'datetime' })
  transactionAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
