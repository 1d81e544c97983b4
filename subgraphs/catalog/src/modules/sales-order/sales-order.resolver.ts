import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import { soleOutletOf } from '@lib/domain/access/user-scope';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MERCHANT_ARG } from '../pos/pos-args';
import {
  QrisSettlementInput,
  QrisSettlementOutcomeType,
  SalesOrderItemType,
  SalesOrderPaymentType,
  SalesOrderType,
} from './sales-order.type';

@Resolver(() => SalesOrderType)
export class SalesOrderResolver {
  @Authorized('internal', 'user')
  @Query(() => [SalesOrderType], { description: 'Newest first; transacted in [from, before).' })
  posSalesOrders(
    @Arg('outletId', () => ID, { nullable: true, description: "Only this outlet's orders." }) outletId: string | null,
    @Arg('status', () => String, { nullable: true, description: 'Only orders in this status.' }) status: string | null,
    @Arg('from', () => DateTimeResolver, { nullable: true, description: 'Start of the window, inclusive (ISO 8601).' }) from: Date | null,
    @Arg('before', () => DateTimeResolver, { nullable: true, description: 'End of the window, exclusive (ISO 8601).' }) before: Date | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 200, default 50.' }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true, description: 'Orders to skip.' }) offset: number | null,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<SalesOrderType[]> {
    const merchant = posMerchantOf(ctx.principal, merchantId, { outletId });
    return ctx.services.salesOrder.list(merchant, {
      outletId: outletId ?? soleOutletOf(ctx.principal),
      status,
      from,
      before,
      limit,
      offset,
    });
  }

  @Authorized('internal', 'user')
  @Query(() => SalesOrderType, { description: 'A sales order of the merchant by id; FORBIDDEN for a user outside its outlet.' })
  posSalesOrder(
    @Arg('id', () => ID, { description: 'Sales order id (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<SalesOrderType> {
    return ctx.services.salesOrder.get(ctx.principal, posMerchantOf(ctx.principal, merchantId), id);
  }

  @Authorized('internal', 'user')
  @Mutation(() => SalesOrderType, { description: 'Voids the order and returns tracked stock; ORDER_ALREADY_VOIDED for a voided one.' })
  voidPosSalesOrder(
    @Arg('id', () => ID) id: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<SalesOrderType> {
    return ctx.services.salesOrder.void(ctx.principal, posMerchantOf(ctx.principal, merchantId, { family: 'sell' }), id, reason);
  }

  @Authorized('internal')
  @Mutation(() => [QrisSettlementOutcomeType], {
    description: 'Marks sales orders paid by their paid dynamic QRIS payments (idempotent per payment); the outcome of each.',
  })
  settlePosSalesOrdersByQris(
    @Arg('items', () => [QrisSettlementInput], { description: 'Paid payments, each linked to an order.' }) items: QrisSettlementInput[],
    @Ctx() ctx: CatalogContext,
  ): Promise<QrisSettlementOutcomeType[]> {
    return ctx.services.qrisSettlement.settle(items);
  }

  // Reached only through an order the caller was allowed to read.
  @FieldResolver(() => [SalesOrderItemType])
  items(@Root() order: SalesOrderType, @Ctx() ctx: CatalogContext): Promise<SalesOrderItemType[]> {
    return ctx.services.salesOrder.items(order.id);
  }

  @FieldResolver(() => [SalesOrderPaymentType])
  payments(@Root() order: SalesOrderType, @Ctx() ctx: CatalogContext): Promise<SalesOrderPaymentType[]> {
    return ctx.services.salesOrder.payments(order.id);
  }
}
