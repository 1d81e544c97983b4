import { qrisCriteriaOf } from '@lib/domain/qris/qris-payload';
import { Repository } from '@lib/db/repository';
import type { MdrPolicyRow, MerchantMdr } from './mdr';

/**
 * The MDR policy rows (MdrPolicyRow, as one JSON array) of the segment of the MCC that the SQL expression `category`
 * yields (null: no MCC): the segment the MCC belongs to in `mdr_category_segments`, else (unlisted MCC, or no MCC) the
 * default segment (`regular`). Its own aliases are mdr_c, mdr_s and mdr_p (docs/decisions/0240-mdr-policy.md).
 */
export const mdrPolicyOf = (category: string): string => `(
  select coalesce(json_agg(json_build_object('criteria', mdr_p.criteria, 'amount_from', mdr_p.amount_from, 'amount_to', mdr_p.amount_to,
           'from_ms', (extract(epoch from mdr_p.effective_from) * 1000)::bigint,
           'to_ms', (extract(epoch from mdr_p.effective_to) * 1000)::bigint, 'rate', mdr_p.rate::text)), '[]'::json)
    from "transaction".mdr_policy mdr_p
   where mdr_p.segment = coalesce(
     (select mdr_c.segment from "transaction".mdr_category_segments mdr_c where mdr_c.category_code = ${category}),
     (select mdr_s.segment from "transaction".mdr_segments mdr_s where mdr_s.is_default)))`;

/** A merchant's MDR inputs as the copy holds them: what MdrRepository.ofMerchants answers per merchant. */
export interface MerchantMdrRequest {
  merchantId: string;
  categoryCode?: string | null;
  /** As the owners resolved it; when null, the copy's. */
  businessScaleCode?: string | null;
}

/** The MDR policy (`mdr_policy`) by segment and the MCCs in each segment, read by payment-event intake in its transaction. */
export class MdrRepository extends Repository {
  /**
   * The MDR inputs of each merchant (keyed by id): the policy rows of its MCC's segment (the MCC given, as the owners
   * resolved it) and its QRIS criteria from the business scale given, else the one in this subgraph's copy
   * (`payment_target_merchants`; URE when neither says). One query for a batch.
   */
  async ofMerchants(requests: readonly MerchantMdrRequest[]): Promise<Map<string, MerchantMdr>> {
    const byId = new Map(
      requests.map((r) => [r.merchantId, { category_code: r.categoryCode ?? null, business_scale_code: r.businessScaleCode ?? null }]),
    );
    if (byId.size === 0) return new Map();
    const rows = await this.rows<{ merchant_id: string; business_scale_code: string | null; policy: MdrPolicyRow[] }>(
      `select x.merchant_id, coalesce(x.business_scale_code, m.business_scale_code) as business_scale_code,
              ${mdrPolicyOf('x.category_code')} as policy
         from json_to_recordset(?::json) as x(merchant_id uuid, category_code text, business_scale_code text)
         left join "transaction".payment_target_merchants m on m.merchant_id = x.merchant_id`,
      [JSON.stringify([...byId].map(([merchant_id, facts]) => ({ merchant_id, ...facts })))],
    );
    return new Map(rows.map((row) => [row.merchant_id, { criteria: qrisCriteriaOf(row.business_scale_code), policy: row.policy }]));
  }

  /** Every row of the policy, by segment, criteria and start. */
  async policy(): Promise<MdrPolicyRecord[]> {
    const rows = await this.rows<Omit<MdrPolicyRecord, 'effective_from' | 'effective_to'> & { from_ms: number; to_ms: number | null }>(
      `select segment, criteria, amount_from::float8 as amount_from, amount_to::float8 as amount_to,
              (extract(epoch from effective_from) * 1000)::float8 as from_ms, (extract(epoch from effective_to) * 1000)::float8 as to_ms,
              rate::text as rate, source
         from "transaction".mdr_policy order by segment, criteria nulls first, effective_from, amount_from`,
    );
    return rows.map(({ from_ms, to_ms, ...row }) => ({
      ...row,
      effective_from: new Date(from_ms),
      effective_to: to_ms === null ? null : new Date(to_ms),
    }));
  }
}

/** A row of `mdr_policy` as the operators' and the app's reads show it. */
export interface MdrPolicyRecord {
  segment: string;
  criteria: string | null;
  amount_from: number;
  amount_to: number | null;
  effective_from: Date;
  effective_to: Date | null;
  rate: string;
  source: string;
}
