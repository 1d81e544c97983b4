import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '../../../../../lib/federation/loaders';
import { TRANSACTION_COLUMNS, Transaction } from './transaction.entity';
import type { TransactionType } from './transaction.type';

export const MAX_LATEST = 100;

export class TransactionService {
  private readonly byId;
  /** One loader per page size: the latest N of a whole batch of merchants in one statement. */
  private readonly latestByLimit = new Map<number, DataLoader<string, Transaction[]>>();

  constructor(private readonly em: EntityManager) {
    this.byId = loaderByKey(
      (ids: string[]) => this.em.find(Transaction, { id: { $in: ids } }),
      (row) => row.id,
    );
  }

  private latestLoader(limit: number): DataLoader<string, Transaction[]> {
    let loader = this.latestByLimit.get(limit);
    if (!loader) {
      loader = loaderGroupedByKey(async (merchantIds: string[]) => {
        const rows = await this.em.getConnection().execute(
          `select ${TRANSACTION_COLUMNS}
             from (select t.*, row_number() over (partition by merchant_id order by transaction_at desc, id desc) as rank
                     from "transaction".transactions t where merchant_id in (?)) ranked
            where rank <= ? order by merchant_id, rank`,
          [merchantIds, limit],
        );
        return rows.map((row: object) => this.em.map(Transaction, row));
      }, (row) => row.merchantId);
      this.latestByLimit.set(limit, loader);
    }
    return loader;
  }

  async findById(id: string): Promise<TransactionType | null> {
    const row = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return row && toTransactionType(row);
  }

  /** The merchant's latest transactions, newest first; `last` is clamped to 1..MAX_LATEST. */
  async latestOfMerchant(merchantId: string, last: number): Promise<TransactionType[]> {
    const limit = Math.min(Math.max(last, 1), MAX_LATEST);
    return (await this.latestLoader(limit).load(merchantId)).map(toTransactionType);
  }
}

export function toTransactionType(row: Transaction): TransactionType {
  return {
    id: row.id,
    transactionCode: row.transactionCode,
    status: row.status,
    grossAmount: row.grossAmount,
    transactionAt: row.transactionAt,
    merchant: { id: row.merchantId },
    outletId: row.outletId ?? null,
    terminalId: row.terminalId ?? null,
    externalReference: row.externalReference ?? null,
    rrn: row.rrn ?? null,
    paymentMethod: row.paymentMethod,
    paymentChannel: row.payerBankName ?? null,
    mdrRate: row.mdrRate,
    mdrFeeAmount: row.mdrFeeAmount,
    netAmountAfterMdr: row.netAmountAfterMdr,
    mdrFeeBank: row.mdrFeeBank,
    switchingFee: row.switchingFee,
    platformFee: row.platformFee,
    currency: row.currency,
    settledAt: row.settledAt ?? null,
    settlementStatus: row.settlementStatus,
    refundedAmount: row.refundedAmount,
  };
}
