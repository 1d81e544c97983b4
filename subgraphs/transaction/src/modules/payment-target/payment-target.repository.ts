import { Repository } from '@lib/db/repository';
import type { MdrPolicyRow } from '../mdr/mdr';
import { mdrPolicyOf } from '../mdr/mdr.repository';

/** An NMID's row of the copy joined with its merchant's (`resolve`): what an event's resolution needs. */
export interface PaymentTargetRow {
  nmid: string;
  merchant_id: string;
  outlet_id: string;
  mid: string | null;
  nmid_status: string;
  nmid_bank_code: string | null;
  /** TID → terminal id. */
  terminals: Record<string, string>;
  live_outlets: number;
  bank_id: string | null;
  bank_code: string | null;
  psp_visible_at: string | null;
  status: string;
  category_code: string | null;
  business_scale_code: string | null;
  /** The MDR policy rows of the segment of the merchant's MCC (mdrPolicyOf). */
  mdr_policy: MdrPolicyRow[];
}

/** An outlet's row of the copy with what its static QRIS is built from (`ofOutlet`); merchant fields null until its job ran. */
export interface OutletQrisRow {
  merchant_id: string;
  nmid: string;
  city: string | null;
  postal_code: string | null;
  qris_static_payload: string | null;
  merchant_name: string | null;
  category_code: string | null;
  business_scale_code: string | null;
  address_city: string | null;
  address_postal_code: string | null;
}

/**
 * The transaction subgraph's copy of payment targets (Migration20261204100000_payment_targets,
 * docs/decisions/0028-payment-event-and-settlement-intake.md): read by event intake, written only by the owners' jobs.
 */
export class PaymentTargetRepository extends Repository {
  /**
   * The copy's rows of these NMIDs that have both parts (outlet set and merchant), with the merchant's business scale
   * and the MDR policy of its MCC's segment, from which a success's rate is chosen (so that intake needs no query of its
   * own for it); one prepared statement.
   */
  resolve(nmids: readonly string[]): Promise<PaymentTargetRow[]> {
    return this.preparedRows<PaymentTargetRow>(
      'payment_targets_resolve',
      `select t.nmid, t.merchant_id, t.outlet_id, t.mid, t.nmid_status, t.nmid_bank_code, t.terminals, s.live_outlets,
              m.bank_id, m.bank_code, m.psp_visible_at, m.status, m.category_code,
              m.business_scale_code, ${mdrPolicyOf('m.category_code')} as mdr_policy
         from "transaction".payment_targets t
         join "transaction".payment_target_outlet_sets s on s.merchant_id = t.merchant_id
         join "transaction".payment_target_merchants m on m.merchant_id = t.merchant_id
        where t.nmid = any(?::text[])`,
      [nmids],
    );
  }

  /** The merchant, NMID and static QRIS fields of a live outlet with an NMID, as the copy holds them; undefined for any other outlet. */
  async ofOutlet(outletId: string): Promise<OutletQrisRow | undefined> {
    const [row] = await this.rows<OutletQrisRow>(
      `select t.merchant_id, t.nmid, t.city, t.postal_code, t.qris_static_payload, m.name as merchant_name,
              m.category_code, m.business_scale_code, m.address_city, m.address_postal_code
         from "transaction".payment_targets t
         left join "transaction".payment_target_merchants m on m.merchant_id = t.merchant_id
        where t.outlet_id = ? limit 1`,
      [outletId],
    );
    return row;
  }

  /** Keeps each merchant's highest version of the given `payment_target_merchants` items; returns rows written. */
  async applyMerchants(profiles: readonly unknown[]): Promise<number> {
    const rows = await this.rows(
      `insert into "transaction".payment_target_merchants as m
         select merchant_id, version, bank_id, bank_code, psp_visible_at, status, category_code, name, business_scale_code,
                address_city, address_postal_code
           from json_populate_recordset(null::"transaction".payment_target_merchants, ?::json)
          order by merchant_id
       on conflict (merchant_id) do update set
         version = excluded.version, bank_id = excluded.bank_id, bank_code = excluded.bank_code,
         psp_visible_at = excluded.psp_visible_at, status = excluded.status, category_code = excluded.category_code,
         name = excluded.name, business_scale_code = excluded.business_scale_code, address_city = excluded.address_city,
         address_postal_code = excluded.address_postal_code
       where m.version < excluded.version
       returning 1`,
      [JSON.stringify(profiles)],
    );
    return rows.length;
  }

  /**
   * Applies `payment_target_outlets` items in one transaction: a merchant's set replaces the copy's only when its
   * version is higher than the last one applied (the set's row is locked until the commit, so two jobs of one merchant
   * apply one after the other); its NMIDs that left the set are dropped, the others upserted unless the NMID's row is
   * newer (an NMID since moved to another merchant). Returns the merchants whose set was applied.
   */
  applyOutletSets(sets: readonly unknown[]): Promise<number> {
    return this.sqlTransaction(async (tx) => {
      const applied = await tx.rows<{ merchant_id: string }>(
        `insert into "transaction".payment_target_outlet_sets as s
           select merchant_id, version, live_outlets
             from json_to_recordset(?::json) as x(merchant_id uuid, version bigint, live_outlets integer)
            order by merchant_id
         on conflict (merchant_id) do update set version = excluded.version, live_outlets = excluded.live_outlets
         where s.version < excluded.version
         returning merchant_id`,
        [JSON.stringify(sets)],
      );
      if (applied.length === 0) return 0;
      const winners = new Set(applied.map((a) => a.merchant_id));
      const won = JSON.stringify((sets as { merchant_id: string }[]).filter((set) => winners.has(set.merchant_id)));
      // The merchants' rows by their index whatever the statistics say (a join with the JSON read as 100 rows chose a
      // scan of the whole copy), less those still in their set (one hashed list).
      await tx.rows(
        `delete from "transaction".payment_targets t
          where t.merchant_id = any(?::uuid[])
            and (t.merchant_id, t.nmid) not in (
              select x.merchant_id, o.nmid
                from json_to_recordset(?::json) as x(merchant_id uuid, outlets json), json_to_recordset(x.outlets) as o(nmid text))`,
        [[...winners], won],
      );
      await tx.rows(
        `insert into "transaction".payment_targets as t
           select o.nmid, x.version, x.merchant_id, o.outlet_id, o.mid, o.nmid_status, o.nmid_bank_code, o.terminals,
                  o.city, o.postal_code, o.qris_static_payload
             from json_to_recordset(?::json) as x(merchant_id uuid, version bigint, outlets json),
                  json_to_recordset(x.outlets) as o(nmid text, outlet_id uuid, mid text, nmid_status text, nmid_bank_code text,
                                                    terminals jsonb, city text, postal_code text, qris_static_payload text)
            order by o.nmid
         on conflict (nmid) do update set
           version = excluded.version, merchant_id = excluded.merchant_id, outlet_id = excluded.outlet_id, mid = excluded.mid,
           nmid_status = excluded.nmid_status, nmid_bank_code = excluded.nmid_bank_code, terminals = excluded.terminals,
           city = excluded.city, postal_code = excluded.postal_code, qris_static_payload = excluded.qris_static_payload
         where t.version < excluded.version`,
        [won],
      );
      return applied.length;
    });
  }
}
