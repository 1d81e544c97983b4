import { withDates } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';
import { OUTLET_ROW_COLUMNS, OUTLET_ROW_DATES, type OutletRow, outletSubqueries } from '../outlet/outlet.repository';
import {
  type EffectiveAccountRow,
  SETTLEMENT_ACCOUNT_DATES,
  settlementAccountSubqueries,
} from '../settlement-account/settlement-account.repository';
import { TERMINAL_ROW_DATES, type TerminalRow, terminalSubqueries } from '../terminal/terminal.repository';

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

/** What a bank-view read takes along with each outlet and profile: what the selection goes on to ask of them. */
export interface ReadAhead {
  /** The outlet's terminals (`Outlet.terminals`). */
  outletTerminals: boolean;
  /** The merchant's live outlets (`Merchant.outlets`). */
  merchantOutlets: boolean;
  /** The merchant's NMID (`Merchant.nmid`). */
  merchantNmid: boolean;
  /** The merchant's primary terminal (`Merchant.terminal`). */
  primaryTerminal: boolean;
  /** The effective settlement account of each of the merchant's live outlets (`Merchant.outlets.effectiveSettlementAccount`). */
  merchantSettlementAccounts: boolean;
}

/** An NMID's live outlet with its merchant's profile, and what was read ahead (absent unless asked). */
export interface BankViewRow {
  outlet: OutletRow;
  profile: MerchantProfileRow;
  outletTerminals?: TerminalRow[];
  merchantOutlets?: OutletRow[];
  merchantNmid?: string | null;
  primaryTerminal?: TerminalRow | null;
  merchantSettlementAccounts?: EffectiveAccountRow[];
}

const PROFILE_DATES = ['psp_visible_at', 'kyc_verified_at', 'created_at', 'updated_at'];

/** The read model of what banks see of merchants (`outlet.merchant_profiles`, docs/decisions/0211-bank-view-read-model.md). */
export class MerchantProfileRepository extends Repository {
  /**
   * The live outlets with these NMIDs, each with its merchant's profile and what `ahead` names, in one statement
   * (one database round trip for a bank lookup or a batch of events: docs/decisions/0211-bank-view-read-model.md).
   * Outlets whose merchant is not in the copy are left out.
   */
  async bankViewsByNmids(nmids: string[], ahead: ReadAhead): Promise<BankViewRow[]> {
    const reads: [wanted: boolean, sql: string][] = [
      [ahead.outletTerminals, `${terminalSubqueries.ofOutlet('o.id')} as "outletTerminals"`],
      [ahead.merchantOutlets, `${outletSubqueries.outletsOf('o.merchant_id')} as "merchantOutlets"`],
      [ahead.merchantNmid, `${outletSubqueries.nmidOf('o.merchant_id')} as "merchantNmid"`],
      [ahead.primaryTerminal, `${terminalSubqueries.primaryOf('o.merchant_id')} as "primaryTerminal"`],
      [
        ahead.merchantSettlementAccounts,
        `${settlementAccountSubqueries.effectiveOfMerchant('o.merchant_id')} as "merchantSettlementAccounts"`,
      ],
    ];
    const extras = reads.filter(([wanted]) => wanted).map(([, sql]) => sql);
    // A prepared statement per combination (bank_view_1010, …): planning it cost more than running it. One NMID (a
    // lone lookup) has a statement of its own: PostgreSQL plans `= any($1)` again at every execution (its generic
    // plan, costed for an array of unknown length, never wins), 0.25 ms of a 0.3 ms statement, where it keeps the
    // generic plan of `= $1` from the sixth execution on (docs/decisions/0211-bank-view-read-model.md).
    const one = nmids.length === 1;
    const name = `bank_view_${reads.map(([wanted]) => Number(wanted)).join('')}${one ? '_one' : ''}`;
    const rows = await this.preparedRows<Record<string, unknown>>(
      name,
      `select ${[OUTLET_ROW_COLUMNS, 'to_jsonb(p) as profile', ...extras].join(', ')}
         from outlet.outlets o join outlet.merchant_profiles p on p.merchant_id = o.merchant_id
        where o.nmid = ${one ? '?' : 'any(?::text[])'} and o.deleted_at is null`,
      [one ? nmids[0] : nmids],
    );
    return rows.map(
      ({ profile, outletTerminals, merchantOutlets, merchantNmid, primaryTerminal, merchantSettlementAccounts, ...outlet }) => ({
        outlet: withDates(outlet, OUTLET_ROW_DATES) as OutletRow,
        profile: withDates(profile as MerchantProfileRow, PROFILE_DATES),
        outletTerminals: (outletTerminals as TerminalRow[] | undefined)?.map((t) => withDates(t, TERMINAL_ROW_DATES)),
        merchantOutlets: (merchantOutlets as OutletRow[] | undefined)?.map((o) => withDates(o, OUTLET_ROW_DATES)),
        merchantNmid: merchantNmid as string | null | undefined,
        primaryTerminal: primaryTerminal
          ? withDates(primaryTerminal as TerminalRow, TERMINAL_ROW_DATES)
          : (primaryTerminal as null | undefined),
        merchantSettlementAccounts: (merchantSettlementAccounts as EffectiveAccountRow[] | undefined)?.map((a) =>
          withDates(a, SETTLEMENT_ACCOUNT_DATES),
        ),
      }),
    );
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
