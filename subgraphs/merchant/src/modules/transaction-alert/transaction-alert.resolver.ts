import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MerchantTransactionAlertInput, MerchantTransactionAlertResultType } from './transaction-alert.type';

@Resolver()
export class TransactionAlertResolver {
  @Authorized('internal')
  @Mutation(() => MerchantTransactionAlertResultType, {
    description: 'Tells the merchant’s owners about a successful payment: a `transaction` push and the merchant_transaction_alert message.',
  })
  async notifyMerchantTransaction(
    @Arg('input', () => MerchantTransactionAlertInput) input: MerchantTransactionAlertInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantTransactionAlertResultType> {
    const result = await ctx.services.transactionAlert.notify(input);
    ctx.log.info({ merchant_id: input.merchantId, transaction_code: input.transactionCode, ...result }, 'merchant transaction alert');
    return result;
  }
}
