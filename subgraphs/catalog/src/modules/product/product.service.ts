import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '@lib/db/sync-pull';
import { v7 as uuidv7 } from 'uuid';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { CategoryRepository } from '../category/category.repository';
import { PosInputError, PosNotFoundError, asPosConflict, optionalText, requireInt, requireText } from '../pos/pos.errors';
import { type ProductRow, ProductRepository } from './product.repository';
import type { CreateProductInput, ProductType, UpdateProductInput } from './product.type';

/** Products per list page: 50 by default, at most 200 (docs/decisions/0053-pos-data-surfaces-and-catalog.md). */
export const PRODUCT_LIST_DEFAULT = 50;
export const PRODUCT_LIST_MAX = 200;
const MAX_NAME = 200;
const MAX_SKU = 64;
const MAX_BARCODE = 64;
const MAX_TEXT = 2000;
const MAX_AMOUNT = 1_000_000_000_000;
const PRODUCT_TYPES = ['good', 'service'];

export interface ProductFilter {
  categoryId?: string | null;
  q?: string | null;
  active?: boolean | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * Products of one merchant, each with one default variant created with it (its SKU and barcode). SKUs are
 * unique per merchant and barcodes over all merchants among live rows: unique indexes decide, a violation is
 * sku_conflict / barcode_conflict.
 */
export class ProductService {
  private readonly repo: ProductRepository;

  constructor(em: EntityManager) {
    this.repo = new ProductRepository(em);
  }

  async list(merchantId: string, filter: ProductFilter): Promise<ProductType[]> {
    const limit = filter.limit == null ? PRODUCT_LIST_DEFAULT : requireInt('limit', filter.limit, 1, PRODUCT_LIST_MAX);
    const offset = filter.offset == null ? 0 : requireInt('offset', filter.offset, 0, 1_000_000);
    const where = ['p.merchant_id = ?', 'p.deleted_at is null', 'p.is_active = ?'];
    const params: unknown[] = [merchantId, filter.active ?? true];
    if (filter.categoryId != null) {
      if (!UUID_PATTERN.test(filter.categoryId)) throw new PosInputError('category_id must be a UUID');
      where.push('p.category_id = ?');
      params.push(filter.categoryId);
    }
    const q = filter.q?.trim();
    if (q) {
      if (q.length > 100) throw new PosInputError('q must be at most 100 characters');
      // A literal substring: LIKE wildcards in the search text match themselves.
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(p.name ilike ? escape '\\' or p.sku ilike ? escape '\\')`);
      params.push(pattern, pattern);
    }
    const rows = await this.repo.page(where, params, limit, offset);
    return rows.map(toProduct);
  }

  async get(merchantId: string, id: string, repo: ProductRepository = this.repo): Promise<ProductType> {
    const row = UUID_PATTERN.test(id) ? await repo.liveById(merchantId, id) : undefined;
    if (!row) throw new PosNotFoundError('product');
    return toProduct(row);
  }

  async create(merchantId: string, input: CreateProductInput): Promise<ProductType> {
    const name = requireText('name', input.name, MAX_NAME);
    const sku = requireText('sku', input.sku, MAX_SKU);
    const productType = input.productType ?? 'good';
    if (!PRODUCT_TYPES.includes(productType)) throw new PosInputError('product_type must be good or service');
    const barcode = optionalText('barcode', input.barcode, MAX_BARCODE);
    const now = new Date();
    const id = uuidv7();
    try {
      return await this.repo.sqlTransaction(async (tx) => {
        if (input.categoryId != null) await requireCategory(tx, merchantId, input.categoryId);
        await tx.insertProduct({
          id,
          merchant_id: merchantId,
          category_id: input.categoryId ?? null,
          name,
          sku,
          product_type: productType,
          sell_price_amount: amount('sell_price_amount', input.sellPriceAmount),
          cost_price_amount: amount('cost_price_amount', input.costPriceAmount),
          unit_label: optionalText('unit_label', input.unitLabel, 32),
          description: optionalText('description', input.description, MAX_TEXT),
          image_url: optionalText('image_url', input.imageUrl, MAX_TEXT),
          tax_rate_bps: input.taxRateBps == null ? 0 : requireInt('tax_rate_bps', input.taxRateBps, 0, 10_000),
          track_stock: input.trackStock ?? false,
          is_active: input.isActive ?? true,
          sort_order: input.sortOrder == null ? 0 : requireInt('sort_order', input.sortOrder, 0, 1_000_000),
          created_at: now,
          updated_at: now,
        });
        await tx.insertVariant({
          id: uuidv7(),
          merchant_id: merchantId,
          product_id: id,
          name,
          sku,
          barcode,
          is_default: true,
          created_at: now,
          updated_at: now,
        });
        return this.get(merchantId, id, tx);
      });
    } catch (error) {
      throw asPosConflict(error);
    }
  }

  /** Absent fields stay; barcode null = no change, "" = removed, a value = set on the default variant. */
  async update(merchantId: string, id: string, input: UpdateProductInput): Promise<ProductType> {
    const changes: Record<string, unknown> = {};
    if (input.name != null) changes.name = requireText('name', input.name, MAX_NAME);
    if (input.description != null) changes.description = optionalText('description', input.description, MAX_TEXT);
    if (input.imageUrl != null) changes.image_url = optionalText('image_url', input.imageUrl, MAX_TEXT);
    if (input.unitLabel != null) changes.unit_label = optionalText('unit_label', input.unitLabel, 32);
    if (input.sellPriceAmount != null) changes.sell_price_amount = amount('sell_price_amount', input.sellPriceAmount);
    if (input.costPriceAmount != null) changes.cost_price_amount = amount('cost_price_amount', input.costPriceAmount);
    if (input.taxRateBps != null) changes.tax_rate_bps = requireInt('tax_rate_bps', input.taxRateBps, 0, 10_000);
    if (input.trackStock != null) changes.track_stock = input.trackStock;
    if (input.isActive != null) changes.is_active = input.isActive;
    if (input.sortOrder != null) changes.sort_order = requireInt('sort_order', input.sortOrder, 0, 1_000_000);
    const barcode = input.barcode == null ? undefined : optionalText('barcode', input.barcode, MAX_BARCODE);
    if (!UUID_PATTERN.test(id)) throw new PosNotFoundError('product');
    try {
      return await this.repo.sqlTransaction(async (tx) => {
        if (!(await tx.lockLive(merchantId, id))) throw new PosNotFoundError('product');
        if (input.categoryId != null) {
          if (input.categoryId !== '') await requireCategory(tx, merchantId, input.categoryId);
          changes.category_id = input.categoryId || null;
        }
        const now = new Date();
        await tx.updateProduct(id, { ...changes, updated_at: now });
        const variant: Record<string, unknown> = {};
        if (barcode !== undefined) variant.barcode = barcode;
        if (changes.name !== undefined) variant.name = changes.name;
        if (Object.keys(variant).length > 0) {
          await tx.updateDefaultVariant(id, { ...variant, updated_at: now });
        }
        return this.get(merchantId, id, tx);
      });
    } catch (error) {
      throw asPosConflict(error);
    }
  }

  /** Soft delete of the product and its variants (their barcodes become free; devices learn of it by sync). */
  async remove(merchantId: string, id: string): Promise<boolean> {
    if (!UUID_PATTERN.test(id)) throw new PosNotFoundError('product');
    return this.repo.sqlTransaction(async (tx) => {
      const now = new Date();
      const count = await tx.softDeleteProduct(merchantId, id, now);
      if (!count) throw new PosNotFoundError('product');
      await tx.softDeleteVariantsOf(id, now);
      return true;
    });
  }
}

async function requireCategory(repo: ProductRepository, merchantId: string, categoryId: string): Promise<void> {
  const found = UUID_PATTERN.test(categoryId) && (await repo.peer(CategoryRepository).hasLive(merchantId, categoryId));
  if (!found) throw new PosInputError('category_id is not a category of the merchant');
}

function amount(field: string, value: number | null | undefined): number {
  return value == null ? 0 : requireInt(field, value, 0, MAX_AMOUNT);
}

function toProduct(row: ProductRow): ProductType {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    categoryId: row.category_id,
    name: row.name,
    sku: row.sku,
    productType: row.product_type,
    sellPriceAmount: Number(row.sell_price_amount),
    costPriceAmount: Number(row.cost_price_amount),
    unitLabel: row.unit_label,
    description: row.description,
    imageUrl: row.image_url,
    taxRateBps: row.tax_rate_bps,
    trackStock: row.track_stock,
    isActive: row.is_active,
    sortOrder: row.sort_order,
    barcode: row.barcode,
    defaultVariantId: row.default_variant_id,
    createdAt: pgTime(row.created_at),
    updatedAt: pgTime(row.updated_at),
  };
}
