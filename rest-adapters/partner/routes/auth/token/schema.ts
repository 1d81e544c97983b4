import { type Static, Type } from '@sinclair/typebox';

export const TokenRequest = Type.Object(
  {
    credential_key: Type.String({ minLength: 1, maxLength: 128, description: 'Public key of the credential (pk_…).' }),
    credential_secret: Type.String({ minLength: 1, maxLength: 256, description: 'The secret issued with it at onboarding.' }),
  },
  { additionalProperties: false },
);
export type TokenRequest = Static<typeof TokenRequest>;

const common = {
  access_token: Type.String({ description: 'HS256 JWT; send as `Authorization: Bearer <access_token>`.' }),
  partner_id: Type.String({ format: 'uuid' }),
  partner_code: Type.String(),
  partner_name: Type.String(),
};

/** Contract A (partner-api.md §2). */
export const TokenResponseA = Type.Object(
  {
    token_type: Type.Literal('Bearer'),
    access_token: common.access_token,
    expires_in_secs: Type.Integer({ description: 'Lifetime in seconds (900).' }),
    scope: Type.Array(Type.String()),
    partner_id: common.partner_id,
    partner_code: common.partner_code,
    partner_name: common.partner_name,
    credential_name: Type.String(),
  },
  { additionalProperties: false, title: 'PartnerTokenResponseA', description: 'Access token, contract A.' },
);
export type TokenResponseA = Static<typeof TokenResponseA>;

/** Contract B (partner-api.md §2): no credential_name. */
export const TokenResponseB = Type.Object(
  {
    token_type: Type.Literal('bearer'),
    access_token: common.access_token,
    expires_in: Type.Integer({ description: 'Lifetime in seconds (3600).' }),
    scopes: Type.Array(Type.String()),
    partner_id: common.partner_id,
    partner_code: common.partner_code,
    partner_name: common.partner_name,
  },
  { additionalProperties: false, title: 'PartnerTokenResponseB', description: 'Access token, contract B.' },
);
export type TokenResponseB = Static<typeof TokenResponseB>;

/** One of the two contracts, by the credential's configuration; `token_type` tells them apart. */
export const TokenResponse = Type.Unsafe<TokenResponseA | TokenResponseB>({ oneOf: [TokenResponseA, TokenResponseB] });
