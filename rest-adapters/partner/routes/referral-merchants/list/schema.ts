import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { MerchantStatusSchema } from '@rest-adapters/partner/routes/partner-data';

/** partner-api.md §1: merchant responses carry default_outlet_id, which integrators store next to merchant_id. */
export const DefaultOutletId = Nullable(
  Type.String({
    format: 'uuid',
    description:
      'The merchant’s default outlet (its live default outlet, else its oldest live outlet); null for a registration under review or a merchant without an outlet. Store it next to merchant_id.',
  }),
);

/** Contract A (partner-api.md §2 "Referral merchant item"). */
export const ReferralMerchantsA = Type.Object(
  {
    partner_id: Type.String({ format: 'uuid' }),
    partner_code: Type.String(),
    items: Type.Array(
      Type.Object(
        {
          merchant_id: Type.String({ format: 'uuid' }),
          merchant_code: Type.String(),
          merchant_name: Type.String(),
          merchant_status: MerchantStatusSchema,
          referral_code: Nullable(Type.String()),
          access_type: Type.Union([Type.Literal('referral'), Type.Literal('consent'), Type.Literal('assignment')]),
          granted_at: Type.String({ format: 'date-time' }),
          default_outlet_id: DefaultOutletId,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'PartnerReferralMerchantsA' },
);
export type ReferralMerchantsA = Static<typeof ReferralMerchantsA>;

/** Contract B. */
export const ReferralMerchantsB = Type.Object(
  {
    partner_id: Type.String({ format: 'uuid' }),
    items: Type.Array(
      Type.Object(
        {
          merchant_id: Type.String({ format: 'uuid' }),
          merchant_code: Type.String(),
          merchant_name: Type.String(),
          status: MerchantStatusSchema,
          referral_partner_id: Nullable(Type.String({ format: 'uuid' })),
          default_outlet_id: DefaultOutletId,
        },
        { additionalProperties: false },
      ),
    ),
    count: Type.Integer({ description: 'Number of items returned.' }),
  },
  { additionalProperties: false, title: 'PartnerReferralMerchantsB' },
);
export type ReferralMerchantsB = Static<typeof ReferralMerchantsB>;

export const ReferralMerchantsResponse = Type.Unsafe<ReferralMerchantsA | ReferralMerchantsB>({
  oneOf: [ReferralMerchantsA, ReferralMerchantsB],
});
