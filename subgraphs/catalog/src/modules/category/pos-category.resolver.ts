import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MERCHANT_ARG } from '../pos/pos-args';
import {
  CategoryType,
  CreatePosCategoryInput,
  PosDefaultCategorySetType,
  ProvisionCategoryInput,
  UpdatePosCategoryInput,
} from './category.type';

/** Point-of-sale category fields; the merchant comes from the principal (lib/domain/access/pos-merchant.ts). */
@Resolver()
export class PosCategoryResolver {
  @Authorized('internal', 'user')
  @Query(() => [CategoryType], { description: 'Live categories of the merchant in display order.' })
  posCategories(@Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null, @Ctx() ctx: CatalogContext): Promise<CategoryType[]> {
    return ctx.services.posCategory.list(posMerchantOf(ctx.principal, merchantId));
  }

  @Authorized('internal', 'user')
  @Query(() => CategoryType, { description: 'A point-of-sale category of the merchant by id.' })
  posCategory(
    @Arg('id', () => ID, { description: 'Category id (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<CategoryType> {
    return ctx.services.posCategory.get(posMerchantOf(ctx.principal, merchantId), id);
  }

  @Authorized('internal', 'user')
  @Query(() => [PosDefaultCategorySetType], { description: 'Curated starting categories per business-type category code.' })
  posDefaultCategorySets(@Ctx() ctx: CatalogContext): PosDefaultCategorySetType[] {
    return ctx.services.posCategory.defaultSets();
  }

  @Authorized('internal', 'user')
  @Mutation(() => CategoryType)
  createPosCategory(
    @Arg('input', () => CreatePosCategoryInput) input: CreatePosCategoryInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<CategoryType> {
    return ctx.services.posCategory.create(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => CategoryType)
  updatePosCategory(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdatePosCategoryInput) input: UpdatePosCategoryInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<CategoryType> {
    return ctx.services.posCategory.update(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), id, input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => Boolean, { description: 'Soft delete.' })
  deletePosCategory(
    @Arg('id', () => ID) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<boolean> {
    return ctx.services.posCategory.remove(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), id);
  }

  @Authorized('internal', 'user')
  @Mutation(() => [CategoryType], { description: 'Idempotent: a merchant with live categories gets them back and nothing is inserted.' })
  provisionPosCategories(
    @Arg('selected', () => [ProvisionCategoryInput]) selected: ProvisionCategoryInput[],
    @Arg('custom', () => [ProvisionCategoryInput]) custom: ProvisionCategoryInput[],
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<CategoryType[]> {
    return ctx.services.posCategory.provision(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), selected, custom);
  }
}
