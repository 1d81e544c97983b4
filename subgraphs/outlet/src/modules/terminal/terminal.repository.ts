import { jsonObjectOf } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';
import { Terminal } from './terminal.entity';

/** What toTerminalType reads (and the merchant it belongs to), under the entity's property names (rows read ahead as JSON carry exactly these). */
export const TERMINAL_ROW_FIELDS = [
  'id',
  'tid',
  'serialNumber',
  'model',
  'firmwareVersion',
  'brandName',
  'deviceTypeName',
  'placementName',
  'status',
  'lastSeenAt',
  'outletId',
  'merchantId',
] as const;
/** A terminal as toTerminalType reads it: an entity, or a plain row with these fields. */
export type TerminalRow = Pick<Terminal, (typeof TERMINAL_ROW_FIELDS)[number]>;
export const TERMINAL_ROW_DATES = ['lastSeenAt'];

/** A merchant's primary terminal: the most recently seen one that is not inactive, of its live outlets. */
const PRIMARY_ORDER = 't.last_seen_at desc nulls last, t.created_at desc, t.id desc';
/** An outlet's terminals, oldest first. */
const OUTLET_ORDER = 't.created_at asc, t.id asc';

/**
 * Subqueries for a statement that reads terminals along with something else (the bank view,
 * merchant-profile.repository.ts), as the reads below find them: JSON terminal rows.
 */
export const terminalSubqueries = {
  /** Every terminal of the outlet `outletId` (SQL), oldest first (ofOutlets). */
  ofOutlet: (outletId: string) =>
    `(select coalesce(jsonb_agg(${jsonObjectOf('t', TERMINAL_ROW_FIELDS)} order by ${OUTLET_ORDER}), '[]')
        from outlet.terminals t where t.outlet_id = ${outletId})`,
  /** The primary terminal of the merchant `merchantId` (SQL), or null (primariesOf). */
  primaryOf: (merchantId: string) =>
    `(select ${jsonObjectOf('t', TERMINAL_ROW_FIELDS)} from outlet.terminals t
        join outlet.outlets live on live.id = t.outlet_id and live.deleted_at is null
        where t.merchant_id = ${merchantId} and t.status <> 'inactive' order by ${PRIMARY_ORDER} limit 1)`,
};

/**
 * Terminals (`outlet.terminals`). A terminal counts only while its outlet is live: the reads by id, by merchant
 * and by key join the live outlets (a soft-deleted outlet's terminals are not found).
 */
export class TerminalRepository extends Repository {
  async liveByIds(ids: string[]): Promise<Terminal[]> {
    const rows = await this.execute(
      `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.id in (?)`,
      [ids],
    );
    return rows.map((row) => this.em.map(Terminal, row));
  }

  /** Every terminal of these outlets, oldest first. */
  async ofOutlets(outletIds: string[]): Promise<Terminal[]> {
    const rows = await this.execute(`select t.* from outlet.terminals t where t.outlet_id in (?) order by ${OUTLET_ORDER}`, [outletIds]);
    return rows.map((row) => this.em.map(Terminal, row));
  }

  /** Every terminal of these merchants' live outlets, oldest first. */
  async liveOfMerchants(merchantIds: string[]): Promise<Terminal[]> {
    const rows = await this.execute(
      `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.merchant_id in (?) order by t.created_at asc, t.id asc`,
      [merchantIds],
    );
    return rows.map((row) => this.em.map(Terminal, row));
  }

  /** Each merchant's primary terminal: the most recently seen one that is not inactive, of its live outlets. */
  async primariesOf(merchantIds: string[]): Promise<Terminal[]> {
    const rows = await this.execute(
      `select distinct on (t.merchant_id) t.* from outlet.terminals t
           join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.merchant_id in (?) and t.status <> 'inactive'
          order by t.merchant_id, ${PRIMARY_ORDER}`,
      [merchantIds],
    );
    return rows.map((row) => this.em.map(Terminal, row));
  }

  /** The merchant's live terminal with this TID, device serial number or id (a TID match first, then the oldest). */
  async liveOfMerchantByKey(merchantId: string, key: string): Promise<Terminal | null> {
    const rows = await this.execute(
      `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
        where t.merchant_id = ? and (t.tid = ? or t.serial_number = ? or t.id::text = ?)
        order by (t.tid = ?) desc, t.created_at asc limit 1`,
      [merchantId, key, key, key.toLowerCase(), key],
    );
    return rows[0] ? this.em.map(Terminal, rows[0]) : null;
  }
}
