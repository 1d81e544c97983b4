import { Repository } from '@lib/db/repository';
import { SYNC_WRITER_TAG, type SyncPage, pullSyncPage } from '@lib/db/sync-pull';

/** Columns a device receives (core-api.md §2 Outlet, plus deleted_at); bank-side fields stay out. */
export const OUTLET_SYNC_COLUMNS = [
  'id',
  'merchant_id',
  'code',
  'name',
  'address_line',
  'city',
  'province',
  'phone',
  'nmid',
  'qris_static_payload',
  'is_active',
  'created_at',
  'updated_at',
  'deleted_at',
].map((c) => `t.${c}`);

/** An outlet row as the point of sale reads it. */
export interface PosOutletRow {
  id: string;
  merchant_id: string;
  code: string;
  name: string;
  address_line: string | null;
  city: string | null;
  province: string | null;
  phone: string | null;
  nmid: string | null;
  /** A manual correction of the static QRIS (docs/decisions/0201-qris-payloads.md); null when it is built. */
  qris_static_payload: string | null;
  postal_code: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

/**
 * The point of sale's statements on `outlet.outlets` (plain rows, knex's builder). Every one is scoped by the
 * merchant, so another merchant's outlet is simply not found.
 */
export class PosOutletRepository extends Repository {
  /** The merchant's live outlets, the default first, then by code. */
  liveOf(merchantId: string): Promise<PosOutletRow[]> {
    return this.db<PosOutletRow>('outlet.outlets')
      .where({ merchant_id: merchantId, deleted_at: null })
      .orderBy([{ column: 'is_default', order: 'desc' }, 'code']);
  }

  liveById(merchantId: string, id: string): Promise<PosOutletRow | undefined> {
    return this.db<PosOutletRow>('outlet.outlets').where({ id, merchant_id: merchantId, deleted_at: null }).first();
  }

  /** Live outlets by id, whatever their merchant (the caller checks it): for `_entities` batches. */
  liveByIds(ids: string[]): Promise<PosOutletRow[]> {
    return this.db<PosOutletRow>('outlet.outlets').whereIn('id', ids).whereNull('deleted_at');
  }

  /** The same row locked for update (inside `sqlTransaction`). */
  lockLiveById(merchantId: string, id: string): Promise<PosOutletRow | undefined> {
    return this.db<PosOutletRow>('outlet.outlets').where({ id, merchant_id: merchantId, deleted_at: null }).forUpdate().first();
  }

  async insert(row: Record<string, unknown>): Promise<PosOutletRow> {
    const [inserted] = await this.db('outlet.outlets').insert(row).returning('*');
    return inserted as PosOutletRow;
  }

  async update(id: string, changes: Record<string, unknown>): Promise<PosOutletRow> {
    const [row] = await this.db('outlet.outlets').where({ id }).update(changes).returning('*');
    return row as PosOutletRow;
  }

  /** Soft-deletes the merchant's live outlet; how many rows changed (0 or 1). */
  softDelete(merchantId: string, id: string): Promise<number> {
    return this.db('outlet.outlets')
      .where({ id, merchant_id: merchantId, deleted_at: null })
      .update({ deleted_at: new Date(), updated_at: new Date() });
  }

  /** One page of the merchant's changed outlets (lib/db/sync-pull.ts), of `outletIds` only when given. */
  pull(merchantId: string, since: number, limit: number, outletIds: string[] | null): Promise<SyncPage> {
    return pullSyncPage(this.db, {
      table: 'outlet.outlets',
      columns: OUTLET_SYNC_COLUMNS,
      writerTag: SYNC_WRITER_TAG.outlet,
      merchantId,
      since,
      limit,
      outlets: outletIds && { column: 'id', ids: outletIds },
    });
  }
}
