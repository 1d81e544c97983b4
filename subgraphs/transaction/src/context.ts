import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import type { SubgraphContext } from '@lib/federation/subgraph-context';
import { feedSignalOf } from './feed-signal';
import { FeeGuardService } from './modules/mdr/fee-guard.service';
import { OrderSettlementService } from './modules/order-settlement/order-settlement.service';
import { PaymentEventService } from './modules/payment-event/payment-event.service';
import { PaymentFeedService } from './modules/payment-feed/payment-feed.service';
import { PaymentTargetService } from './modules/payment-target/payment-target.service';
import { QrisPaymentService } from './modules/qris-payment/qris-payment.service';
import { ReconciliationService } from './modules/reconciliation/reconciliation.service';
import { ScoringService } from './modules/scoring/scoring.service';
import { SettlementService } from './modules/settlement/settlement.service';
import { StatementService } from './modules/statement/statement.service';
import { TransactionPeriodService, TransactionService } from './modules/transaction/transaction.service';
import { TransactionFeedService } from './modules/transaction/transaction-feed.service';
import { SandboxService } from './modules/sandbox/sandbox.service';

export function transactionRequestScope(em: EntityManager, config?: Config) {
  return {
    services: {
      transaction: new TransactionService(em),
      paymentEvent: new PaymentEventService(em, feedSignalOf(config)),
      paymentTarget: new PaymentTargetService(em),
      orderSettlement: new OrderSettlementService(em),
      paymentFeed: new PaymentFeedService(em),
      settlement: new SettlementService(em),
      scoring: new ScoringService(em),
      transactionPeriod: new TransactionPeriodService(em),
      feed: new TransactionFeedService(em),
      qrisPayment: new QrisPaymentService(em, feedSignalOf(config)),
      sandbox: new SandboxService(em),
      statement: new StatementService(em, new ReconciliationService(em)),
      feeGuard: new FeeGuardService(em),
      reconciliation: new ReconciliationService(em, config),
    },
  };
}

export type TransactionContext = SubgraphContext<ReturnType<typeof transactionRequestScope>>;
