import { withDates } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';

/** A row of `outlet.merchant_profiles`, under its column names (the `merchant_profiles` job's item format). */
export type MerchantProfileRow = {
  merchant_id: string;
  version: string;
  bank_id: string | null;
  bank_code: string | null;
  psp_visible_at: Date | null;
  name: string;
  legal_name: string | null;
  status: string;
  category_code: string | null;
  category_name: string | null;
  phone: string | null;
  email: string | null;
  npwp: string | null;
  address_line: string | null;
  address_city: string | null;
  address_province: string | null;
  address_postal_code: string | null;
  address_country: string;
  kyc_status: string;
  kyc_verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** The read model of what banks see of merchants (`outlet.merchant_profiles`, docs/decisions/0211-bank-view-read-model.md). */
export class MerchantProfileRepository extends Repository {
  /** The profiles of the merchants of the live outlets with these NMIDs, each with the NMID (`outlet_nmid`). */
  async byOutletNmids(nmids: string[]): Promise<(MerchantProfileRow & { outlet_nmid: string })[]> {
    const rows = await this.rows<MerchantProfileRow & { outlet_nmid: string }>(
      `select p.*, o.nmid as outlet_nmid from outlet.outlets o join outlet.merchant_profiles p on p.merchant_id = o.merchant_id
        where o.nmid = any(?::text[]) and o.deleted_at is null`,
      [nmids],
    );
    return rows.map((row) => withDates(row, ['psp_visible_at', 'kyc_verified_at', 'created_at', 'updated_at']));
  }

  /** Keeps each merchant's highest version of the given profiles (jobs may run in any order); returns rows written. */
  async upsert(profiles: unknown[]): Promise<number> {
    const rows = await this.rows(
      `insert into outlet.merchant_profiles as p
         select * from json_populate_recordset(null::outlet.merchant_profiles, ?::json)
       on conflict (merchant_id) do update set
         version = excluded.version, bank_id = excluded.bank_id, bank_code = excluded.bank_code,
         psp_visible_at = excluded.psp_visible_at, name = excluded.name, legal_name = excluded.legal_name,
         status = excluded.status, category_code = excluded.category_code, category_name = excluded.category_name,
         phone = excluded.phone, email = excluded.email, npwp = excluded.npwp, address_line = excluded.address_line,
         address_city = excluded.address_city, address_province = excluded.address_province,
         address_postal_code = excluded.address_postal_code, address_country = excluded.address_country,
         kyc_status = excluded.kyc_status, kyc_verified_at = excluded.kyc_verified_at,
         created_at = excluded.created_at, updated_at = excluded.updated_at
       where p.version < excluded.version
       returning 1`,
      [JSON.stringify(profiles)],
    );
    return rows.length;
  }
}
