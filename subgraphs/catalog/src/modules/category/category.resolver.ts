import { Arg, Authorized, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MerchantRef } from '@subgraphs/catalog/src/references/merchant.ref';
import { CategoryType } from './category.type';

@Resolver(() => CategoryType)
export class CategoryResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => CategoryType, { nullable: true, description: 'A merchant category (MCC) by id.' })
  category(@Arg('id', () => ID, { description: 'Category id.' }) id: string, @Ctx() ctx: CatalogContext): Promise<CategoryType | null> {
    return ctx.services.category.findById(id);
  }
}

@Resolver(() => MerchantRef)
export class MerchantCategoriesResolver {
  @Authorized('service', 'internal', 'operator')
  @FieldResolver(() => [CategoryType], { description: 'Live point-of-sale categories in display order.' })
  posCategories(@Root() merchant: MerchantRef, @Ctx() ctx: CatalogContext): Promise<CategoryType[]> {
    return ctx.services.category.ofMerchant(merchant.id);
  }
}
