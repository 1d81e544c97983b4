import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { readVisibility } from '@lib/domain/access/user-scope';
import { SYNC_PULL_MAX_LIMIT, type SyncPage } from '@lib/db/sync-pull';
import { CustomerRepository } from '../customer/customer.repository';
import { deleteCustomer, upsertCustomer } from '../customer/customer.service';
import { PosInputError } from '../pos/pos.errors';
import { PushRejection } from '../pos/push-rejection';
import { createSalesOrder } from '../sales-order/sales-order-intake';
import { SalesOrderRepository } from '../sales-order/sales-order.repository';
import { StockRepository } from '../stock/stock.repository';
import { createStockMovement } from '../stock/stock.service';
import { SyncRepository } from './sync.repository';
import type { PushItemInput, PushResultType } from './sync.type';

/** core-api.md §8: at most 500 items per push. */
export const SYNC_PUSH_MAX_ITEMS = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Deadlock (e.g. another merchant's batch replaying this one's outbox ids) or serialization failure: the whole batch is retried. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 3;

/**
 * What a device pulls of each catalog entity (storage columns; internal ones stay out), and the column that binds a
 * row to an outlet (`outlet`), by which a member bound to outlets pulls only theirs (decision 0061); the others are
 * merchant-wide.
 */
const PULL_COLUMNS: Record<string, { table: string; columns: string[]; outlet?: string }> = {
  categories: {
    table: 'catalog.categories',
    columns: ['id', 'merchant_id', 'parent_id', 'name', 'sort_order', 'icon_name', 'is_active', 'created_at', 'updated_at', 'deleted_at'],
  },
  products: {
    table: 'catalog.products',
    columns: [
      'id',
      'merchant_id',
      'category_id',
      'name',
      'sku',
      'product_type',
      'sell_price_amount',
      'cost_price_amount',
      'unit_label',
      'description',
      'image_url',
      'tax_rate_bps',
      'track_stock',
      'is_active',
      'sort_order',
      'created_at',
      'updated_at',
      'deleted_at',
    ],
  },
  variants: {
    table: 'catalog.variants',
    columns: ['id', 'merchant_id', 'product_id', 'name', 'sku', 'barcode', 'is_default', 'created_at', 'updated_at', 'deleted_at'],
  },
  product_stock: {
    table: 'catalog.product_stock',
    columns: ['id', 'merchant_id', 'outlet_id', 'variant_id', 'quantity', 'created_at', 'updated_at'],
    outlet: 'outlet_id',
  },
  customers: {
    table: 'catalog.customers',
    columns: ['id', 'merchant_id', 'name', 'phone', 'email', 'note', 'created_at', 'updated_at', 'deleted_at'],
  },
  // Headers (as the order list): a device learns of an order completed on the server (paid by dynamic QRIS) or voided.
  sales_orders: {
    table: 'catalog.sales_orders',
    outlet: 'outlet_id',
    columns: [
      'id',
      'merchant_id',
      'outlet_id',
      'customer_id',
      'receipt_number',
      'status',
      'source',
      'transacted_at',
      'subtotal_amount',
      'discount_amount',
      'tax_amount',
      'total_amount',
      'paid_amount',
      'change_amount',
      'voided_at',
      'void_reason',
      'created_at',
      'updated_at',
    ],
  },
};
export const PULL_ENTITIES = Object.keys(PULL_COLUMNS);

/** An item's handler, given the push's repository on the item's savepoint (`tx.peer(…)` for its aggregate's). */
type Apply = (tx: SyncRepository, merchantId: string, entityId: string, payload: Record<string, unknown>) => Promise<void>;
const HANDLERS: Record<string, Record<string, Apply>> = {
  sales_order: { create: (tx, ...item) => createSalesOrder(tx.peer(SalesOrderRepository), ...item) },
  stock_movement: { create: (tx, ...item) => createStockMovement(tx.peer(StockRepository), ...item) },
  customer: {
    upsert: (tx, ...item) => upsertCustomer(tx.peer(CustomerRepository), ...item),
    delete: (tx, merchantId, id) => deleteCustomer(tx.peer(CustomerRepository), merchantId, id),
  },
};

export class SyncService {
  private readonly repo: SyncRepository;

  constructor(em: EntityManager) {
    this.repo = new SyncRepository(em);
  }

  /** A page of the merchant's changed rows of `entity`; a user bound to outlets gets the rows of its outlets only. */
  pull(principal: Principal, merchantId: string, entity: string, since: number, limit: number): Promise<SyncPage> {
    const target = PULL_COLUMNS[entity];
    if (!target) throw new PosInputError(`entity must be one of outlets, ${PULL_ENTITIES.join(', ')}`);
    if (limit < 1 || limit > SYNC_PULL_MAX_LIMIT) throw new PosInputError(`limit must be 1 to ${SYNC_PULL_MAX_LIMIT}`);
    const outletIds = readVisibility(principal, { merchantId })?.outletIds;
    return this.repo.pull({
      table: target.table,
      columns: target.columns.map((c) => `t.${c}`),
      merchantId,
      since,
      limit,
      outlets: target.outlet && outletIds ? { column: target.outlet, ids: outletIds } : null,
    });
  }

  /**
   * Applies a device's outbox in one transaction, each item in its own savepoint. The item's receipt row
   * (primary key outbox_id) is inserted first: a replay — also one racing in a concurrent batch, which waits on
   * the per-merchant lock until the first commits — finds it and is accepted without applying anything again. A
   * rejected item rolls back to its savepoint (receipt included) and the others go on.
   */
  async push(merchantId: string, items: PushItemInput[]): Promise<PushResultType> {
    if (items.length > SYNC_PUSH_MAX_ITEMS) throw new PosInputError(`at most ${SYNC_PUSH_MAX_ITEMS} items per push`);
    for (const item of items) {
      if (!UUID.test(item.outboxId) || !UUID.test(item.entityId)) throw new PosInputError('outbox_id and entity_id must be UUIDs');
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.repo.sqlTransaction((tx) => this.applyAll(tx, merchantId, items));
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  private async applyAll(tx: SyncRepository, merchantId: string, items: PushItemInput[]): Promise<PushResultType> {
    // One push per merchant at a time: duplicate batches (in any item order) and their stock updates never
    // wait on each other in a cycle; they run one after the other and the later one finds the receipts.
    await tx.lockPushes(merchantId);
    const accepted: string[] = [];
    const rejected: { outboxId: string; reason: string }[] = [];
    for (const item of items) {
      const outboxId = item.outboxId.toLowerCase();
      try {
        await tx.sqlTransaction(async (savepoint) => {
          const claimed = await savepoint.claimReceipt({
            outboxId,
            merchantId,
            entityType: item.entityType,
            entityId: item.entityId.toLowerCase(),
            op: item.op,
          });
          if (!claimed) {
            if ((await savepoint.receiptMerchant(outboxId)) !== merchantId) throw new PushRejection('outbox_id already used');
            return;
          }
          const apply = HANDLERS[item.entityType]?.[item.op];
          if (!apply) throw new PushRejection(`unsupported entity_type/op ${item.entityType}/${item.op}`);
          await apply(savepoint, merchantId, item.entityId.toLowerCase(), item.payload ?? {});
        });
        accepted.push(outboxId);
      } catch (error) {
        const reason = rejectionOf(error);
        if (reason === null) throw error;
        rejected.push({ outboxId, reason });
      }
    }
    return { accepted, rejected };
  }
}

/** The device-facing reason of a failed item, or null when the failure is the server's (then the batch fails). */
function rejectionOf(error: unknown): string | null {
  if (error instanceof PushRejection) return error.message;
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  // Integrity violations the checks above did not foresee (e.g. a row created concurrently) are the item's fault.
  if (code && code.startsWith('23')) return `rejected by constraint ${constraint ?? code}`;
  return null;
}
