import { Repository } from '@lib/db/repository';
import { Terminal } from './terminal.entity';

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
  ofOutlets(outletIds: string[]): Promise<Terminal[]> {
    return this.em.find(Terminal, { outletId: { $in: outletIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
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
          order by t.merchant_id, t.last_seen_at desc nulls last, t.created_at desc, t.id desc`,
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
