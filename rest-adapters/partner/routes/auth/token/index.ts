import { signPartnerToken } from '@lib/auth/partner-token';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import type { PartnerPrincipal } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerVerifyCredentialDocument } from '@rest-adapters/generated/operations';
import { TokenRequest, TokenResponse, type TokenResponseA, type TokenResponseB } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B, PARTNER_EXAMPLE } from '@rest-adapters/partner/routes/partner.examples';

/**
 * Token exchange (partner-api.md §4, §5): a JWT-mode credential's key and secret for an access token, shaped
 * by the credential's contract. Unknown key, wrong secret, revoked credential, suspended partner and
 * HMAC-mode credential are the same 401 (the merchant subgraph answers null for all, in constant time).
 */
export default defineRoute({
  method: 'POST',
  url: '/api/partner/v1/auth/token',
  summary: 'Exchange a partner credential for an access token',
  description: [
    'Only an active credential in JWT mode, of an active partner, gets a token. The body is fixed per credential by its contract, told apart by `token_type`: contract A (`Bearer`) 900 s, `expires_in_secs`, `scope`, `credential_name`; contract B (`bearer`) 3600 s, `expires_in`, `scopes`.',
    '',
    '- **401 `unauthorized`**, the same answer (and the same time) for an unknown key, a wrong secret, a revoked credential, an HMAC-mode credential and a suspended partner, so keys cannot be probed.',
    '- 400 `bad_request`: a field missing, empty or too long. 429 `rate_limit_exceeded`: more than 60 requests a minute from the client address.',
  ].join('\n'),
  tags: ['partner: auth'],
  schema: { body: TokenRequest, response: { 200: TokenResponse, ...errorResponses(400, 401, 429) } },
  operationId: 'PartnerVerifyCredential',
  examples: {
    body: {
      credential_key: DEMO.partner.credentials.contractA.credentialKey,
      credential_secret: DEMO.partner.credentials.contractA.secret,
    },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            token_type: 'Bearer',
            access_token: PARTNER_EXAMPLE.token,
            expires_in_secs: 900,
            scope: [...DEMO.partner.credentials.contractA.scopes],
            partner_id: DEMO.partner.id,
            partner_code: DEMO.partner.code,
            partner_name: DEMO.partner.name,
            credential_name: DEMO.partner.credentials.contractA.name,
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            token_type: 'bearer',
            access_token: PARTNER_EXAMPLE.token,
            expires_in: 3600,
            scopes: [...DEMO.partner.credentials.contractB.scopes],
            partner_id: DEMO.partner.id,
            partner_code: DEMO.partner.code,
            partner_name: DEMO.partner.name,
          },
        },
      },
    },
  },
  rateLimit: { max: 60, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { verifyPartnerCredential: credential } = await execute(
      PartnerVerifyCredentialDocument,
      { credentialKey: body.credential_key, credentialSecret: body.credential_secret },
      { acting: undefined },
    );
    if (!credential) throw new HttpError(401, 'unauthorized', 'invalid credential');
    const { token, expiresInSecs } = await signPartnerToken(
      {
        credentialId: credential.id,
        credentialKey: credential.credentialKey,
        partnerId: credential.partner.id,
        scopes: credential.scopes,
        contract: credential.contract as PartnerPrincipal['contract'],
      },
      config.secrets.partnerTokenSecret,
    );
    const partner = { partner_id: credential.partner.id, partner_code: credential.partner.code, partner_name: credential.partner.name };
    if (credential.contract === 'A') {
      const a: TokenResponseA = {
        token_type: 'Bearer',
        access_token: token,
        expires_in_secs: expiresInSecs,
        scope: credential.scopes,
        ...partner,
        credential_name: credential.name,
      };
      return a;
    }
    const b: TokenResponseB = {
      token_type: 'bearer',
      access_token: token,
      expires_in: expiresInSecs,
      scopes: credential.scopes,
      ...partner,
    };
    return b;
  },
});
