import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

export const TRANSACTION_STATUSES = ['success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** A payment attributed to merchant + outlet (+ terminal, later). Amounts in whole rupiah. */
@Entity({ tableName: 'transactions' })
export class Transaction {
  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  merchantId!: string;

  @Property({ type: 'uuid', nullable: true })
  outletId?: string | null;

  @Property({ type: 'text' })
  transactionCode!: string;

  @Property({ type: 'text' })
  status!: TransactionStatus;

  @Property({ type: new BigIntType('number') })
  grossAmount!: number;

  @Property({ type: 'datetime' })
  transactionAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
