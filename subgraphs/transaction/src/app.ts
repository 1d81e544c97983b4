import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { transactionRequestScope } from './context';
import { openFeedSignal } from './feed-signal';
import { transactionJobs } from './jobs';
import { migrations } from './migrations';
import { PaymentEvent } from './modules/payment-event/payment-event.entity';
import { Settlement } from './modules/settlement/settlement.entity';
import { Transaction } from './modules/transaction/transaction.entity';
import { buildTransactionSchema } from './schema';
import { seedTransactionDemo } from './seed/demo.seed';

/** The transaction subgraph: transactions, the payment-event inbox, settlements, summaries and scoring; its copy of payment targets. */
export const transactionSubgraph: SubgraphDefinition<ReturnType<typeof transactionRequestScope>> = {
  name: 'transaction',
  entities: [Transaction, PaymentEvent, Settlement],
  migrations,
  buildSchema: buildTransactionSchema,
  requestScope: transactionRequestScope,
  jobs: transactionJobs,
  seedDemo: seedTransactionDemo,
  open: openFeedSignal,
};
