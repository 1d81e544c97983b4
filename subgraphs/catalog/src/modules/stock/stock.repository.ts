import { Repository } from '@lib/db/repository';

/** Stock (`catalog.stock_movements`, `catalog.product_stock`), written inside the caller's transaction. */
export class StockRepository extends Repository {
  async insertMovement(row: Record<string, unknown>): Promise<void> {
    await this.db('catalog.stock_movements').insert(row);
  }

  /** Adds `delta` to the variant's stock at the outlet (the row is created at `delta` when missing), atomically. */
  async addToStock(row: { id: string; merchantId: string; outletId: string; variantId: string; delta: bigint; now: Date }): Promise<void> {
    await this.rows(
      `insert into catalog.product_stock (id, merchant_id, outlet_id, variant_id, quantity, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (merchant_id, outlet_id, variant_id)
     do update set quantity = catalog.product_stock.quantity + excluded.quantity, updated_at = excluded.updated_at`,
      [row.id, row.merchantId, row.outletId, row.variantId, row.delta.toString(), row.now, row.now],
    );
  }

  async movementExists(id: string): Promise<boolean> {
    return (await this.db('catalog.stock_movements').where({ id }).first('id')) !== undefined;
  }
}
