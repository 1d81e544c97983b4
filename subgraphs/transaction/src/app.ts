import type { SubgraphDefinition } from '../../../lib/federation/subgraph-definition';
import { transactionRequestScope } from './context';
import { migrations } from './migrations';
import { Transaction } from './modules/transaction/transaction.entity';
import { buildTransactionSchema } from './schema';
import { seedTransactionDemo } from './seed/demo.seed';

/** The transaction subgraph: transactions, the payment-event inbox, settlements, summaries and scoring. */
export const transactionSubgraph: SubgraphDefinition<ReturnType<typeof transactionRequestScope>> = {
  name: 'transaction',
  entities: [Transaction],
  migrations,
  buildSchema: buildTransactionSchema,
  requestScope: transactionRequestScope,
  seedDemo: seedTransactionDemo,
};
