import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

/**
 * partner-api.md §1 "outlet_breakdown array in dashboard summaries": success transactions of the merchants in scope,
 * all time, per merchant and outlet (both contracts).
 */
const OutletBreakdown = Type.Array(
  Type.Object(
    {
      merchant_id: Type.String({ format: 'uuid' }),
      outlet_id: Nullable(Type.String({ format: 'uuid', description: 'null: transactions recorded without an outlet.' })),
      gross_amount: Type.Integer({ description: 'Σ gross of the outlet’s success transactions, all time, whole rupiah.' }),
      transaction_count: Type.Integer({ description: 'The outlet’s success transactions, all time.' }),
    },
    { additionalProperties: false },
  ),
  {
    description:
      'Success transactions of the merchants in scope per merchant and outlet (outlets with none are left out), by merchant then highest gross first. Contract A: they add up to gross_amount and transaction_count.',
  },
);

/** Contract A (partner-api.md §2 "Referral summary"). */
export const ReferralSummaryA = Type.Object(
  {
    partner_id: Type.String({ format: 'uuid' }),
    partner_code: Type.String(),
    merchant_count: Type.Integer({ description: 'All merchants in scope.' }),
    active_count: Type.Integer({ description: 'Merchants with status active.' }),
    gross_amount: Type.Integer({ description: 'Σ gross of success transactions of the merchants in scope, all time, whole rupiah.' }),
    transaction_count: Type.Integer({ description: 'Success transactions of the merchants in scope, all time.' }),
    outlet_breakdown: OutletBreakdown,
  },
  { additionalProperties: false, title: 'PartnerReferralSummaryA' },
);
export type ReferralSummaryA = Static<typeof ReferralSummaryA>;

/** Contract B. */
export const ReferralSummaryB = Type.Object(
  {
    partner_id: Type.String({ format: 'uuid' }),
    merchant_count: Type.Integer(),
    active_count: Type.Integer(),
    inactive_count: Type.Integer({ description: 'Merchants with any status other than active.' }),
    outlet_breakdown: OutletBreakdown,
  },
  { additionalProperties: false, title: 'PartnerReferralSummaryB' },
);
export type ReferralSummaryB = Static<typeof ReferralSummaryB>;

export type OutletBreakdown = Static<typeof OutletBreakdown>;

export const ReferralSummaryResponse = Type.Unsafe<ReferralSummaryA | ReferralSummaryB>({ oneOf: [ReferralSummaryA, ReferralSummaryB] });
