import { type FilterQuery, LockMode, type RequiredEntityData } from '@mikro-orm/core';
import { columnsAs, withDates } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { Merchant } from './merchant.entity';

/** What toMerchantType reads, and what the bank scope needs, under the entity's property names. */
const MERCHANT_ROW_FIELDS = [
  'id',
  'merchantCode',
  'name',
  'legalName',
  'status',
  'categoryCode',
  'categoryName',
  'businessScaleCode',
  'phone',
  'email',
  'npwp',
  'addressLine',
  'addressCity',
  'addressProvince',
  'addressPostalCode',
  'addressCountry',
  'kycStatus',
  'kycVerifiedAt',
  'kycExpiresAt',
  'pspVisibleAt',
  'sandbox',
  'createdAt',
  'updatedAt',
] as const;
const MERCHANT_ROW_COLUMNS = `${columnsAs('m', MERCHANT_ROW_FIELDS)}, m.bank_id as "bankId"`;
const MERCHANT_DATES = ['kycVerifiedAt', 'kycExpiresAt', 'pspVisibleAt', 'createdAt', 'updatedAt'];

/** The fields of a merchant toMerchantType reads (an entity, or a plain row). */
export type MerchantFields = Pick<Merchant, Exclude<(typeof MERCHANT_ROW_FIELDS)[number], 'pspVisibleAt'>> & {
  bank?: { code: string } | null;
};

/**
 * For another aggregate's statement that joins `merchant.merchants` as `alias` (the partner scope wall): the columns
 * toMerchantType reads, under the entity's property names, and such a row's merchant fields (without its bank).
 */
export const merchantColumnsOf = (alias: string): string => columnsAs(alias, MERCHANT_ROW_FIELDS);
export function merchantFieldsOf(row: Record<string, unknown>): MerchantFields {
  return withDates(row, MERCHANT_DATES) as unknown as MerchantFields;
}

/** A merchant as a plain row (the reads on every bank path), with its bank's id and code. */
export type MerchantRow = MerchantFields & { pspVisibleAt: Date | null; bankId: string | null };

/**
 * Merchants (`merchant.merchants`): plain rows for the reads on every federated and bank path, entities (bank
 * loaded) for operator searches and for what a lifecycle change locks, changes and flushes.
 */
export class MerchantRepository extends Repository {
  /** The merchants with these ids, as plain rows. */
  rowsByIds(ids: string[]): Promise<MerchantRow[]> {
    return this.merchantRows('m.id in (?)', [ids]);
  }

  /**
   * One keyset page of a bank's active merchants visible to it, by id, after `afterId`: `limit` rows (the caller asks
   * one more than it shows).
   */
  bankPage(bankId: string, filter: { afterId: string | null; updatedSince: Date | null; categoryCode: string | null }, limit: number) {
    const filters: [condition: string, value: unknown][] = [['m.bank_id = ?', bankId]];
    if (filter.afterId) filters.push(['m.id > ?', filter.afterId]);
    if (filter.updatedSince) filters.push(['m.updated_at >= ?', filter.updatedSince]);
    if (filter.categoryCode) filters.push(['m.category_code = ?', filter.categoryCode]);
    const where = `${filters.map(([condition]) => condition).join(' and ')} and m.status = 'active' and m.psp_visible_at is not null`;
    return this.merchantRows(`${where} order by m.id asc limit ?`, [...filters.map(([, value]) => value), limit]);
  }

  byId(id: string): Promise<Merchant | null> {
    return this.em.findOne(Merchant, { id });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.em.count(Merchant, { id })) > 0;
  }

  /** The merchant with this primary NMID, bank loaded. */
  byPrimaryNmid(nmid: string): Promise<Merchant | null> {
    return this.em.findOne(Merchant, { primaryNmid: nmid }, { populate: ['bank'] });
  }

  /** The merchant with this id that came from an approval (reviewed). */
  reviewedById(id: string): Promise<Merchant | null> {
    return this.em.findOne(Merchant, { id, reviewedAt: { $ne: null } });
  }

  /** A bank's visible merchants matching every given criterion (phone, npwp exact; email case-insensitive), by id, bank loaded. */
  async searchOfBank(bankId: string, criteria: { phone?: string | null; email?: string | null; npwp?: string | null }, limit: number) {
    const where: FilterQuery<Merchant> = { bank: bankId, pspVisibleAt: { $ne: null } };
    if (criteria.phone) where.phone = criteria.phone;
    if (criteria.npwp) where.npwp = criteria.npwp;
    const qb = this.em.createQueryBuilder(Merchant, 'm').select('*').where(where).orderBy({ id: 'asc' }).limit(limit);
    if (criteria.email) qb.andWhere('lower(m.email) = ?', [criteria.email.toLowerCase()]);
    const rows = await qb.getResultList();
    await this.em.populate(rows, ['bank']);
    return rows;
  }

  /**
   * Operators' search: a query matches the merchant code (exact, any case), the phone (any Indonesian form), the
   * primary NMID (exact) or the name (contains, any case); no query lists all. Live merchants, or sandbox ones only
   * (docs/decisions/0015-demo-data-and-sandbox.md). By id after `afterId`, bank loaded.
   */
  async search(
    filter: { query: string | null; status: string | null; afterId: string | null; sandbox: boolean },
    limit: number,
  ): Promise<Merchant[]> {
    const qb = this.em.createQueryBuilder(Merchant, 'm').select('*').where({ sandbox: filter.sandbox }).orderBy({ id: 'asc' }).limit(limit);
    if (filter.status) qb.andWhere({ status: filter.status });
    if (filter.afterId) qb.andWhere({ id: { $gt: filter.afterId } });
    const query = filter.query;
    if (query) {
      const phone = toIndonesianE164(query);
      const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere({
        $or: [
          { merchantCode: query.toUpperCase() },
          { primaryNmid: query.toUpperCase() },
          ...(phone ? [{ phone }] : []),
          { name: { $ilike: pattern } },
        ],
      });
    }
    const rows = await qb.getResultList();
    await this.em.populate(rows, ['bank']);
    return rows;
  }

  /** A new merchant, written by the next flush. */
  create(data: RequiredEntityData<Merchant>): Merchant {
    return this.em.create(Merchant, data);
  }

  /** The merchant locked for update (inside `transactional`), fresh from the database, bank loaded. */
  async lockById(id: string): Promise<Merchant | null> {
    const merchant = await this.em.findOne(Merchant, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (merchant) await this.em.populate(merchant, ['bank']);
    return merchant;
  }

  /** Merchants as plain rows (no entities): the reads on every bank path, where dozens or hundreds come at once. */
  private async merchantRows(where: string, params: unknown[]): Promise<MerchantRow[]> {
    const rows = await this.execute(
      `select ${MERCHANT_ROW_COLUMNS}, b.code as "bankCode" from merchant.merchants m left join merchant.banks b on b.id = m.bank_id where ${where}`,
      params,
    );
    return rows.map(merchantOfRow);
  }
}

function merchantOfRow(row: Record<string, unknown>): MerchantRow {
  const merchant = withDates(row, MERCHANT_DATES) as MerchantRow;
  return { ...merchant, bank: row.bankCode ? { code: row.bankCode as string } : null };
}
