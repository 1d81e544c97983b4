import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

export const AssignmentParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Merchant id.' }) });
export type AssignmentParams = Static<typeof AssignmentParams>;

/** Our payload (the spec leaves it open). The issuing bank is the caller, the tier-1 PSP. */
export const AssignmentRequest = Type.Object(
  {
    nmid: Type.String({ pattern: '^ID[0-9]{10,15}$' }),
    outlet_id: Type.Optional(Type.String({ format: 'uuid', description: 'Defaults to the merchant’s default outlet.' })),
    mid: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,32}$' })),
  },
  { additionalProperties: false },
);
export type AssignmentRequest = Static<typeof AssignmentRequest>;

export const AssignmentResponse = Type.Object({
  merchant_id: Type.String({ format: 'uuid' }),
  outlet_id: Type.String({ format: 'uuid' }),
  nmid: Type.String(),
  mid: Nullable(Type.String()),
  bank_code: Type.String({ description: 'The issuing bank: the caller.' }),
  nmid_status: Type.String(),
  merchant_status: Type.String({ description: 'active once approval, KYC and an NMID are all in place (merchant.activated sent).' }),
});
export type AssignmentResponse = Static<typeof AssignmentResponse>;
