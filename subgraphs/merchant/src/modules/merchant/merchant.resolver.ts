import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { BankType } from '../bank/bank.type';
import { MerchantPageType, MerchantType } from './merchant.type';

@Resolver(() => MerchantType)
export class MerchantResolver {
  @Authorized('service', 'internal', 'operator', 'bank')
  @Query(() => MerchantType, { nullable: true, description: 'A bank sees only its own activated merchants; others are null.' })
  merchant(
    @Arg('id', () => ID, { description: 'Merchant id (UUID).' }) id: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType | null> {
    return ctx.services.merchant.findById(id, ctx.principal);
  }

  @Authorized('internal', 'operator')
  @Query(() => MerchantType, {
    nullable: true,
    description: 'The merchant whose own NMID (the first recorded, the one banks see) this is.',
  })
  merchantByPrimaryNmid(
    @Arg('nmid', { description: 'National merchant ID of the default outlet.' }) nmid: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType | null> {
    return ctx.services.merchant.findByPrimaryNmid(nmid);
  }

  @Authorized('bank')
  @Query(() => MerchantPageType, { description: "The calling bank's active merchants, oldest first." })
  bankMerchants(
    @Arg('first', () => Int, { defaultValue: 100, description: 'Page size.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'Cursor from the previous page.' }) after: string | null,
    @Arg('updatedSince', () => DateTimeResolver, { nullable: true, description: 'Only merchants updated at or after this time.' })
    updatedSince: Date | null,
    @Arg('categoryCode', () => String, { nullable: true, description: 'Only merchants with this MCC.' }) categoryCode: string | null,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantPageType> {
    return ctx.services.merchant.listForBank(bankIdOf(ctx), { first, after, updatedSince, categoryCode });
  }

  @Authorized('bank')
  @Query(() => [MerchantType], { description: "Exact search among the calling bank's merchants." })
  bankMerchantSearch(
    @Arg('phone', () => String, { nullable: true, description: 'Exact phone; 08…, 628… and +628… are the same number.' })
    phone: string | null,
    @Arg('email', () => String, { nullable: true, description: 'Exact email, case-insensitive.' }) email: string | null,
    @Arg('npwp', () => String, { nullable: true, description: 'Exact tax number; dots and dashes ignored.' }) npwp: string | null,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType[]> {
    return ctx.services.merchant.searchForBank(bankIdOf(ctx), { phone, email, npwp });
  }

  @Authorized('internal', 'operator')
  @FieldResolver(() => BankType, {
    nullable: true,
    description: 'The acquiring bank (operators and internal callers; e.g. the sandbox simulation acts as it).',
  })
  bank(@Root() merchant: MerchantType, @Ctx() ctx: MerchantContext): Promise<BankType | null> {
    return merchant.bankCode ? ctx.services.bank.typeByCode(merchant.bankCode) : Promise.resolve(null);
  }
}

function bankIdOf(ctx: MerchantContext): string {
  if (ctx.principal.kind !== 'bank') throw new ForbiddenError();
  return ctx.principal.bankId;
}
