import type { TransactionContext } from '../../context';
import type { TransactionType } from './transaction.type';

export const transactionReference = {
  Transaction: {
    __resolveReference(ref: { id: string }, ctx: TransactionContext): Promise<TransactionType | null> {
      return ctx.services.transaction.findById(ref.id);
    },
  },
};
