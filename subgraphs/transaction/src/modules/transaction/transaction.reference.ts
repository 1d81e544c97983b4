import type { TransactionContext } from '@subgraphs/transaction/src/context';
import type { TransactionType } from './transaction.type';

export const transactionReference = {
  Transaction: {
    __resolveReference(ref: { id: string }, ctx: TransactionContext): Promise<TransactionType | null> {
      return ctx.services.transaction.findById(ref.id);
    },
  },
};
