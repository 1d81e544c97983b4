import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { eitherContract } from '@rest-adapters/partner/routes/partner-data';
import { PartnerOutlet } from '../partner-outlet';

const Common = {
  merchant_id: Type.String({ format: 'uuid' }),
  default_outlet_id: Nullable(Type.String({ format: 'uuid', description: 'The merchant’s default outlet; store it next to merchant_id.' })),
};

/** Contract A: like the other A wrappers, with the merchant's name. */
export const OutletListA = Type.Object(
  {
    merchant_id: Common.merchant_id,
    merchant_name: Type.String(),
    default_outlet_id: Common.default_outlet_id,
    items: Type.Array(PartnerOutlet),
  },
  { additionalProperties: false, title: 'PartnerOutletListA' },
);
/** Contract B: like the other B wrappers, with count. */
export const OutletListB = Type.Object(
  { merchant_id: Common.merchant_id, default_outlet_id: Common.default_outlet_id, items: Type.Array(PartnerOutlet), count: Type.Integer() },
  { additionalProperties: false, title: 'PartnerOutletListB' },
);
export type OutletListA = Static<typeof OutletListA>;
export type OutletListB = Static<typeof OutletListB>;
export const OutletListResponse = eitherContract<OutletListA, OutletListB>(OutletListA, OutletListB);
