import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '@lib/federation/build-subgraph-schema';
import { MdrPolicyResolver, MerchantFeeGuardResolver, TransactionFeeGuardResolver } from './modules/mdr/fee-guard.resolver';
import { OrderSettlementResolver } from './modules/order-settlement/order-settlement.resolver';
import { PaymentEventResolver } from './modules/payment-event/payment-event.resolver';
import { PaymentFeedResolver } from './modules/payment-feed/payment-feed.resolver';
import { QrisPaymentResolver } from './modules/qris-payment/qris-payment.resolver';
import { MerchantReconciliationResolver, ReconciliationDifferenceResolver } from './modules/reconciliation/reconciliation.resolver';
import { MerchantScoringResolver } from './modules/scoring/scoring.resolver';
import { SettlementResolver } from './modules/settlement/settlement.resolver';
import { SandboxTransactionResolver } from './modules/sandbox/sandbox.resolver';
import { MerchantStatementResolver, StatementResolver } from './modules/statement/statement.resolver';
import { transactionReference } from './modules/transaction/transaction.reference';
import {
  MerchantTransactionFeedResolver,
  MerchantTransactionPeriodResolver,
  MerchantTransactionsResolver,
  TransactionOutletResolver,
  TransactionResolver,
} from './modules/transaction/transaction.resolver';

export function buildTransactionSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        TransactionResolver,
        MerchantTransactionsResolver,
        PaymentEventResolver,
        SettlementResolver,
        MerchantScoringResolver,
        MerchantTransactionPeriodResolver,
        MerchantTransactionFeedResolver,
        TransactionOutletResolver,
        QrisPaymentResolver,
        PaymentFeedResolver,
        OrderSettlementResolver,
        SandboxTransactionResolver,
        StatementResolver,
        MerchantStatementResolver,
        MdrPolicyResolver,
        MerchantFeeGuardResolver,
        TransactionFeeGuardResolver,
        MerchantReconciliationResolver,
        ReconciliationDifferenceResolver,
      ],
    },
    transactionReference,
  );
}
