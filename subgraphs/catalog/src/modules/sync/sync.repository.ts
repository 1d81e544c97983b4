import { Repository } from '@lib/db/repository';
import { SYNC_WRITER_TAG, type SyncPage, type SyncPullQuery, pullSyncPage } from '@lib/db/sync-pull';

/**
 * Device sync's own statements: pull pages (lib/db/sync-pull.ts) and a push's per-merchant lock and receipts
 * (`catalog.sync_receipts`). A push runs in one `sqlTransaction`, each item in a savepoint of it (a nested
 * `sqlTransaction`); the item's handler gets its aggregate's repository on that savepoint (`peer`).
 */
export class SyncRepository extends Repository {
  /** One page of the merchant's changed rows of a synced table. */
  pull(query: Omit<SyncPullQuery, 'writerTag'>): Promise<SyncPage> {
    return pullSyncPage(this.db, { ...query, writerTag: SYNC_WRITER_TAG.catalog });
  }

  /** One push per merchant at a time: the transaction-scoped advisory lock of the merchant's pushes. */
  async lockPushes(merchantId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('catalog.push:' || ?, 0))`, [merchantId]);
  }

  /** Stores an outbox item's receipt unless its outbox_id has one; whether it was stored. */
  async claimReceipt(r: { outboxId: string; merchantId: string; entityType: string; entityId: string; op: string }): Promise<boolean> {
    const rows = await this.rows(
      `insert into catalog.sync_receipts (outbox_id, merchant_id, entity_type, entity_id, op, received_at)
             values (?, ?, ?, ?, ?, now()) on conflict (outbox_id) do nothing returning outbox_id`,
      [r.outboxId, r.merchantId, r.entityType, r.entityId, r.op],
    );
    return rows.length > 0;
  }

  /** The merchant whose push holds the receipt of this outbox_id (undefined: none). */
  async receiptMerchant(outboxId: string): Promise<string | undefined> {
    const first = await this.db('catalog.sync_receipts').where({ outbox_id: outboxId }).first('merchant_id');
    return first?.merchant_id;
  }
}
