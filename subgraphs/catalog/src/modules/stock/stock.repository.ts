import { Repository } from '@lib/db/repository';

/** Stock (`catalog.stock_movements`, `catalog.product_stock`), written inside the caller's transaction. */
export class StockRepository extends Repository {
  async insertMovements(rows: Record<string, unknown>[]): Promise<void> {
    await this.db('catalog.stock_movements').insert(rows);
  }

  /**
   * Adds each change's `delta` to its variant's stock at its outlet (a missing row is created at `delta`), atomically,
   * in one statement: at most one change per (outlet, variant), locked in the order given.
   */
  async addToStock(
    changes: { id: string; merchantId: string; outletId: string; variantId: string; delta: bigint; now: Date }[],
  ): Promise<void> {
    await this.db('catalog.product_stock')
      .insert(
        changes.map((c) => ({
          id: c.id,
          merchant_id: c.merchantId,
          outlet_id: c.outletId,
          variant_id: c.variantId,
          quantity: c.delta.toString(),
          created_at: c.now,
          updated_at: c.now,
        })),
      )
      .onConflict(['merchant_id', 'outlet_id', 'variant_id'])
      .merge({
        quantity: this.db.raw('catalog.product_stock.quantity + excluded.quantity'),
        updated_at: this.db.raw('excluded.updated_at'),
      });
  }

  async movementExists(id: string): Promise<boolean> {
    return (await this.db('catalog.stock_movements').where({ id }).first('id')) !== undefined;
  }
}
