import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '../../../lib/federation/subgraph-context';
import { TransactionService } from './modules/transaction/transaction.service';

export function transactionRequestScope(em: EntityManager) {
  return { services: { transaction: new TransactionService(em) } };
}

export type TransactionContext = SubgraphContext<ReturnType<typeof transactionRequestScope>>;
