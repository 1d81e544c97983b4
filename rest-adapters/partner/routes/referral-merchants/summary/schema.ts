import { type Static, Type } from '@sinclair/typebox';

/** Contract A (partner-api.md §2 "Referral summary"). */
export const ReferralSummaryA = Type.Object(
  {
    partner_id: Type.String({ format: 'uuid' }),
    partner_code: Type.String(),
    merchant_count: Type.Integer({ description: 'All merchants in scope.' }),
    active_count: Type.Integer({ description: 'Merchants with status active.' }),
    gross_amount: Type.Integer({ description: 'Σ gross of success transactions of the merchants in scope, all time, whole rupiah.' }),
    transaction_count: Type.Integer({ description: 'Success transactions of the merchants in scope, all time.' }),
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
  },
  { additionalProperties: false, title: 'PartnerReferralSummaryB' },
);
export type ReferralSummaryB = Static<typeof ReferralSummaryB>;

export const ReferralSummaryResponse = Type.Unsafe<ReferralSummaryA | ReferralSummaryB>({ oneOf: [ReferralSummaryA, ReferralSummaryB] });
