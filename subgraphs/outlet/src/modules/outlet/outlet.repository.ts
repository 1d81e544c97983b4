import { columnsAs, jsonObjectOf, withDates } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';
import type { Terminal } from '../terminal/terminal.entity';
import { Outlet } from './outlet.entity';

/** What toOutletType reads, under the entity's property names (plain-row reads select exactly these). */
const OUTLET_ROW_FIELDS = [
  'id',
  'code',
  'name',
  'nmid',
  'nmidStatus',
  'nmidBankCode',
  'mid',
  'addressLine',
  'city',
  'province',
  'postalCode',
  'phone',
  'isDefault',
  'merchantId',
  'createdAt',
  'updatedAt',
] as const;
export const OUTLET_ROW_COLUMNS = columnsAs('o', OUTLET_ROW_FIELDS);
/** An outlet as a plain row (the lookups on every bank path): the entity's fields toOutletType reads. */
export type OutletRow = Pick<Outlet, (typeof OUTLET_ROW_FIELDS)[number]>;
export const OUTLET_ROW_DATES = ['createdAt', 'updatedAt'];

/** A merchant's live outlets are listed default first, then by code. */
const MERCHANT_OUTLETS_ORDER = 'is_default desc, code asc';
/** The outlet that stands for a merchant: the live default one, else the oldest live one. */
const STANDING_ORDER = 'is_default desc, created_at asc, id asc';

/**
 * Subqueries for a statement that reads a merchant's outlets along with something else (the bank view,
 * merchant-profile.repository.ts), in the orders of the reads below. `merchantId` is the SQL of the merchant's id.
 */
export const outletSubqueries = {
  /** The merchant's live outlets as a JSON array of outlet rows. */
  outletsOf: (merchantId: string) =>
    `(select coalesce(jsonb_agg(${jsonObjectOf('m', OUTLET_ROW_FIELDS)} order by ${prefixed('m', MERCHANT_OUTLETS_ORDER)}), '[]')
        from outlet.outlets m where m.merchant_id = ${merchantId} and m.deleted_at is null)`,
  /** The merchant's NMID (nmidsOf). */
  nmidOf: (merchantId: string) =>
    `(select m.nmid from outlet.outlets m where m.merchant_id = ${merchantId} and m.deleted_at is null and m.nmid is not null
        order by ${prefixed('m', STANDING_ORDER)} limit 1)`,
};

function prefixed(alias: string, order: string): string {
  return order.replace(/(^|, )/g, `$1${alias}.`);
}

/**
 * Outlets (`outlet.outlets`): plain rows for the lookups on every bank path (by NMID, by merchant), entities for
 * what a write changes. Live outlets are those not soft-deleted.
 */
export class OutletRepository extends Repository {
  liveByIds(ids: string[]): Promise<Outlet[]> {
    return this.em.find(Outlet, { id: { $in: ids }, deletedAt: null });
  }

  /** The live outlets with these NMIDs, as plain rows. */
  liveRowsByNmids(nmids: string[]): Promise<OutletRow[]> {
    return this.outletRows('o.nmid in (?) and o.deleted_at is null', [nmids]);
  }

  /** The live outlets of these merchants as plain rows, each merchant's default first, then by code. */
  liveRowsOfMerchants(merchantIds: string[]): Promise<OutletRow[]> {
    return this.outletRows(`o.merchant_id in (?) and o.deleted_at is null order by ${prefixed('o', MERCHANT_OUTLETS_ORDER)}`, [
      merchantIds,
    ]);
  }

  /** The outlet that stands for each merchant: the live default one, else the oldest live one. */
  async defaultsOf(merchantIds: string[]): Promise<Outlet[]> {
    const rows = await this.execute(
      `select distinct on (merchant_id) * from outlet.outlets
          where merchant_id in (?) and deleted_at is null
          order by merchant_id, ${STANDING_ORDER}`,
      [merchantIds],
    );
    return rows.map((row) => this.em.map(Outlet, row));
  }

  /** The same order restricted to outlets with an NMID: the default outlet's, else the oldest live outlet's. */
  nmidsOf(merchantIds: string[]): Promise<{ merchant_id: string; nmid: string }[]> {
    return this.execute<{ merchant_id: string; nmid: string }>(
      `select distinct on (merchant_id) merchant_id, nmid from outlet.outlets
            where merchant_id in (?) and deleted_at is null and nmid is not null
            order by merchant_id, ${STANDING_ORDER}`,
      [merchantIds],
    );
  }

  /** Outlets other than `exceptId` holding this NMID, soft-deleted ones included (the unique index covers them). */
  countNmidHolders(nmid: string, exceptId: string): Promise<number> {
    return this.em.count(Outlet, { nmid, id: { $ne: exceptId } });
  }

  liveByNmid(nmid: string): Promise<Outlet | null> {
    return this.em.findOne(Outlet, { nmid, deletedAt: null });
  }

  liveByMid(mid: string): Promise<Outlet | null> {
    return this.em.findOne(Outlet, { mid, deletedAt: null });
  }

  liveOfMerchant(id: string, merchantId: string): Promise<Outlet | null> {
    return this.em.findOne(Outlet, { id, merchantId, deletedAt: null });
  }

  /** An outlet, live or not. */
  byId(id: string): Promise<Outlet | null> {
    return this.em.findOne(Outlet, { id });
  }

  /** Inserts new outlets and their terminals in one transaction. */
  async insertWithTerminals(outlets: Outlet[], terminals: Terminal[]): Promise<void> {
    await this.em.transactional(async (em) => {
      // Two flushes: terminals reference their outlets by a plain id, which orders nothing for the ORM.
      await em.persist(outlets).flush();
      if (terminals.length > 0) await em.persist(terminals).flush();
    });
  }

  private async outletRows(where: string, bindings: unknown[]): Promise<OutletRow[]> {
    const rows = await this.execute(`select ${OUTLET_ROW_COLUMNS} from outlet.outlets o where ${where}`, bindings);
    return rows.map((row) => withDates(row, OUTLET_ROW_DATES) as OutletRow);
  }
}
