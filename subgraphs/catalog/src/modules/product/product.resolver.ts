import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MERCHANT_ARG } from '../pos/pos-args';
import { CreateProductInput, ProductType, UpdateProductInput } from './product.type';

@Resolver()
export class ProductResolver {
  @Authorized('internal', 'user')
  @Query(() => [ProductType], {
    description: 'Live products; q matches name or SKU (substring, case-insensitive); active defaults to true.',
  })
  posProducts(
    @Arg('categoryId', () => ID, { nullable: true, description: 'Only products of this category.' }) categoryId: string | null,
    @Arg('q', () => String, { nullable: true, description: 'Text contained in the name or SKU.' }) q: string | null,
    @Arg('active', () => Boolean, { nullable: true, description: 'Only active (true) or inactive (false) products; both when omitted.' })
    active: boolean | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 200, default 50.' }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true, description: 'Products to skip.' }) offset: number | null,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<ProductType[]> {
    return ctx.services.product.list(posMerchantOf(ctx.principal, merchantId), { categoryId, q, active, limit, offset });
  }

  @Authorized('internal', 'user')
  @Query(() => ProductType, { description: 'A point-of-sale product of the merchant by id.' })
  posProduct(
    @Arg('id', () => ID, { description: 'Product id (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<ProductType> {
    return ctx.services.product.get(posMerchantOf(ctx.principal, merchantId), id);
  }

  @Authorized('internal', 'user')
  @Mutation(() => ProductType, { description: 'Creates the product and its default variant; CONFLICT sku_conflict or barcode_conflict.' })
  createPosProduct(
    @Arg('input', () => CreateProductInput) input: CreateProductInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<ProductType> {
    return ctx.services.product.create(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => ProductType)
  updatePosProduct(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateProductInput) input: UpdateProductInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<ProductType> {
    return ctx.services.product.update(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), id, input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => Boolean, { description: 'Soft delete of the product and its variants.' })
  deletePosProduct(
    @Arg('id', () => ID) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<boolean> {
    return ctx.services.product.remove(posMerchantOf(ctx.principal, merchantId, { family: 'manage' }), id);
  }
}
