import { Repository } from '@lib/db/repository';

/** A product with its default variant's barcode and id, as the point of sale reads it (plain row). */
export interface ProductRow {
  id: string;
  merchant_id: string;
  category_id: string | null;
  name: string;
  sku: string;
  product_type: string;
  sell_price_amount: string;
  cost_price_amount: string;
  unit_label: string | null;
  description: string | null;
  image_url: string | null;
  tax_rate_bps: number;
  track_stock: boolean;
  is_active: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
  barcode: string | null;
  default_variant_id: string;
}

const SELECT = `select p.*, v.barcode, v.id as default_variant_id
                  from catalog.products p
                  join catalog.variants v on v.product_id = p.id and v.is_default and v.deleted_at is null`;

/**
 * Products and their variants (`catalog.products`, `catalog.variants`), plain rows scoped by the merchant. A product
 * is written together with its default variant, in one `sqlTransaction`.
 */
export class ProductRepository extends Repository {
  /** Live products matching `where` (conditions on `p`, `?` placeholders), by sort order, name, id. */
  page(where: string[], params: unknown[], limit: number, offset: number): Promise<ProductRow[]> {
    return this.rows<ProductRow>(`${SELECT} where ${where.join(' and ')} order by p.sort_order, p.name, p.id limit ? offset ?`, [
      ...params,
      limit,
      offset,
    ]);
  }

  async liveById(merchantId: string, id: string): Promise<ProductRow | undefined> {
    const [row] = await this.rows<ProductRow>(`${SELECT} where p.id = ? and p.merchant_id = ? and p.deleted_at is null`, [id, merchantId]);
    return row;
  }

  /** Whether the merchant's live product exists, locking it for update (inside `sqlTransaction`). */
  async lockLive(merchantId: string, id: string): Promise<boolean> {
    return (
      (await this.db('catalog.products').where({ id, merchant_id: merchantId, deleted_at: null }).forUpdate().first('id')) !== undefined
    );
  }

  /** Whether the merchant has a variant with this id, deleted or not. */
  async hasVariant(merchantId: string, variantId: string): Promise<boolean> {
    return (await this.db('catalog.variants').where({ id: variantId, merchant_id: merchantId }).first('id')) !== undefined;
  }

  async insertProduct(row: Record<string, unknown>): Promise<void> {
    await this.db('catalog.products').insert(row);
  }

  async insertVariant(row: Record<string, unknown>): Promise<void> {
    await this.db('catalog.variants').insert(row);
  }

  async updateProduct(id: string, changes: Record<string, unknown>): Promise<void> {
    await this.db('catalog.products').where({ id }).update(changes);
  }

  async updateDefaultVariant(productId: string, changes: Record<string, unknown>): Promise<void> {
    await this.db('catalog.variants').where({ product_id: productId, is_default: true, deleted_at: null }).update(changes);
  }

  /** Soft-deletes the merchant's live product; how many rows changed (0 or 1). */
  softDeleteProduct(merchantId: string, id: string, now: Date): Promise<number> {
    return this.db('catalog.products')
      .where({ id, merchant_id: merchantId, deleted_at: null })
      .update({ deleted_at: now, updated_at: now });
  }

  async softDeleteVariantsOf(productId: string, now: Date): Promise<void> {
    await this.db('catalog.variants').where({ product_id: productId, deleted_at: null }).update({ deleted_at: now, updated_at: now });
  }
}
