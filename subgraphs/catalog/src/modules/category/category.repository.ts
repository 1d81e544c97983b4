import { Repository } from '@lib/db/repository';
import { Category } from './category.entity';

/** A category as the point of sale reads it (plain row). */
export interface CategoryRow {
  id: string;
  merchant_id: string;
  parent_id: string | null;
  name: string;
  sort_order: number;
  icon_name: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at?: Date | null;
}

/**
 * Categories (`catalog.categories`): entities for the federated reads, plain rows (knex's builder) for the point of
 * sale, where every statement is scoped by the merchant. Live categories are those not soft-deleted.
 */
export class CategoryRepository extends Repository {
  liveByIds(ids: string[]): Promise<Category[]> {
    return this.em.find(Category, { id: { $in: ids }, deletedAt: null });
  }

  /** The live categories of these merchants, by sort order then name. */
  liveOfMerchants(merchantIds: string[]): Promise<Category[]> {
    return this.em.find(Category, { merchantId: { $in: merchantIds }, deletedAt: null }, { orderBy: { sortOrder: 'asc', name: 'asc' } });
  }

  /** The merchant's live categories as rows, by sort order, name, id. */
  liveRowsOf(merchantId: string): Promise<CategoryRow[]> {
    return this.live(merchantId).orderBy(['sort_order', 'name', 'id']);
  }

  liveRowById(merchantId: string, id: string): Promise<CategoryRow | undefined> {
    return this.live(merchantId).where({ id }).first();
  }

  /** The same row locked for update (inside `sqlTransaction`). */
  lockLiveRowById(merchantId: string, id: string): Promise<CategoryRow | undefined> {
    return this.live(merchantId).where({ id }).forUpdate().first();
  }

  /** Whether the merchant has a live category with this id. */
  async hasLive(merchantId: string, id: string): Promise<boolean> {
    return (await this.live(merchantId).where({ id }).first('id')) !== undefined;
  }

  /** Whether the merchant has any live category. */
  async hasAnyLive(merchantId: string): Promise<boolean> {
    return (await this.live(merchantId).first('id')) !== undefined;
  }

  /** Whether `id` is `categoryId` or one of its ancestors. */
  async isSelfOrAncestor(id: string, categoryId: string): Promise<boolean> {
    const [{ cycle }] = await this.rows<{ cycle: boolean }>(
      `with recursive up as (select id, parent_id from catalog.categories where id = ?
                 union select c.id, c.parent_id from catalog.categories c join up on c.id = up.parent_id)
               select exists (select 1 from up where id = ?) as cycle`,
      [categoryId, id],
    );
    return cycle;
  }

  async insert(row: Record<string, unknown>): Promise<CategoryRow> {
    const [inserted] = await this.db('catalog.categories').insert(row).returning('*');
    return inserted as CategoryRow;
  }

  async insertMany(rows: Record<string, unknown>[]): Promise<void> {
    await this.db('catalog.categories').insert(rows);
  }

  async update(id: string, changes: Record<string, unknown>): Promise<CategoryRow> {
    const [row] = await this.db('catalog.categories').where({ id }).update(changes).returning('*');
    return row as CategoryRow;
  }

  /** Soft-deletes the merchant's live category; how many rows changed (0 or 1). */
  softDelete(merchantId: string, id: string): Promise<number> {
    return this.live(merchantId).where({ id }).update({ deleted_at: new Date(), updated_at: new Date() });
  }

  /** The transaction-scoped advisory lock that serialises one merchant's provisions (inside `sqlTransaction`). */
  async lockProvisioning(merchantId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('catalog.provision:' || ?, 0))`, [merchantId]);
  }

  private live(merchantId: string) {
    return this.db<CategoryRow>('catalog.categories').where({ merchant_id: merchantId, deleted_at: null });
  }
}
