import { type Static, Type } from '@sinclair/typebox';
import { signUserAccessToken } from '@lib/auth/user-token';
import type { Config } from '@lib/config/config';
import type { CoreVerifyLoginOtpMutation } from '@rest-adapters/generated/operations';

/** core-api.md §2 Session, exactly: the body of every login path and of refresh. */
export const SessionBody = Type.Object(
  {
    status: Type.Union([Type.Literal('authenticated'), Type.Literal('verified')], {
      description: 'verified after a phone verification (OTP or identity provider); authenticated for a trusted device or a refresh.',
    }),
    phone: Type.String({ description: 'E.164 (+62…).' }),
    verified: Type.Boolean({ description: 'The phone has been verified (always true for a session).' }),
    token_type: Type.Literal('Bearer'),
    access_token: Type.String({ description: 'HS256 JWT, 3600 s; send as `Authorization: Bearer <access_token>`.' }),
    refresh_token: Type.String({
      description: 'Opaque, single use: POST /auth/refresh returns the next one; a reused one ends the session.',
    }),
    expires_in_secs: Type.Integer({ description: 'Lifetime of the access token (3600).' }),
  },
  { additionalProperties: false, title: 'CoreSession' },
);
export type SessionBody = Static<typeof SessionBody>;

/** A session the merchant subgraph opened (every login path and refresh select the same fields). */
export type SessionGrant = CoreVerifyLoginOtpMutation['verifyLoginOtp'];

/** Signs the access token of a session the merchant subgraph opened (sub = user, sid = session). */
export async function sessionBody(grant: SessionGrant, status: SessionBody['status'], config: Config): Promise<SessionBody> {
  const { token, expiresInSecs } = await signUserAccessToken(
    { userId: grant.userId, sessionId: grant.sessionId },
    config.secrets.userTokenSecret,
  );
  return {
    status,
    phone: grant.phone,
    verified: true,
    token_type: 'Bearer',
    access_token: token,
    refresh_token: grant.refreshToken,
    expires_in_secs: expiresInSecs,
  };
}
