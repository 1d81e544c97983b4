import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { CreatePosProductInput, PosProductFieldsFragment, UpdatePosProductInput } from '@rest-adapters/generated/operations';

const Amount = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: 'Rupiah.' });

/** core-api.md §2 Product, with id, merchant and times; barcode is the default variant’s. */
export const PosProduct = Type.Object({
  id: Type.String({ format: 'uuid' }),
  merchant_id: Type.String({ format: 'uuid' }),
  category_id: Nullable(Type.String({ format: 'uuid' })),
  name: Type.String(),
  sku: Type.String(),
  product_type: Type.Union([Type.Literal('good'), Type.Literal('service')]),
  sell_price_amount: Type.Integer(),
  cost_price_amount: Type.Integer(),
  unit_label: Nullable(Type.String()),
  description: Nullable(Type.String()),
  image_url: Nullable(Type.String()),
  tax_rate_bps: Type.Integer(),
  track_stock: Type.Boolean(),
  is_active: Type.Boolean(),
  sort_order: Type.Integer(),
  barcode: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type PosProduct = Static<typeof PosProduct>;

/** Fields a create or patch may carry (create also needs name and sku). */
export const ProductFields = {
  category_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  sell_price_amount: Type.Optional(Nullable(Amount)),
  cost_price_amount: Type.Optional(Nullable(Amount)),
  unit_label: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  image_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  tax_rate_bps: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Basis points: 1100 is 11 %.' }))),
  track_stock: Type.Optional(Nullable(Type.Boolean())),
  is_active: Type.Optional(Nullable(Type.Boolean())),
  sort_order: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  barcode: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
};

type Fields = { [K in keyof typeof ProductFields]?: Static<(typeof ProductFields)[K]> };

/** The GraphQL input of the fields a body carries (undefined ones are left out of the variables). */
export function productInput(body: Fields & { name: string; sku: string; product_type?: string | null }): CreatePosProductInput;
export function productInput(
  body: Fields & { name?: string | null },
): UpdatePosProductInput & { sku?: string; productType?: string | null };
export function productInput(body: Fields & { name?: string | null; sku?: string; product_type?: string | null }): Record<string, unknown> {
  return {
    name: body.name,
    sku: body.sku,
    productType: body.product_type,
    categoryId: body.category_id,
    sellPriceAmount: body.sell_price_amount,
    costPriceAmount: body.cost_price_amount,
    unitLabel: body.unit_label,
    description: body.description,
    imageUrl: body.image_url,
    taxRateBps: body.tax_rate_bps,
    trackStock: body.track_stock,
    isActive: body.is_active,
    sortOrder: body.sort_order,
    barcode: body.barcode,
  };
}

export function toPosProduct(p: PosProductFieldsFragment): PosProduct {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    category_id: p.categoryId,
    name: p.name,
    sku: p.sku,
    product_type: p.productType as PosProduct['product_type'],
    sell_price_amount: p.sellPriceAmount,
    cost_price_amount: p.costPriceAmount,
    unit_label: p.unitLabel,
    description: p.description,
    image_url: p.imageUrl,
    tax_rate_bps: p.taxRateBps,
    track_stock: p.trackStock,
    is_active: p.isActive,
    sort_order: p.sortOrder,
    barcode: p.barcode,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}
