import type { SecretBox } from '@lib/crypto/secret-box';
import { hashSecret } from '@lib/auth/secret-hash';

/** Rows the demo seeds share (the live demo and the demo sandbox): a bank's two keys, a partner's JWT credentials. */

/** A bank's lookup and event keys with fixed ids and secrets, sealed. */
export function bankKeyRows(
  box: SecretBox,
  bankId: string,
  ids: readonly [lookup: string, event: string],
  keys: { lookupKeyId: string; lookupSecret: string; eventKeyId: string; eventSecret: string },
  now: Date,
) {
  return [
    {
      id: ids[0],
      bank_id: bankId,
      purpose: 'lookup',
      key_id: keys.lookupKeyId,
      secret_sealed: box.seal(keys.lookupSecret),
      created_at: now,
    },
    { id: ids[1], bank_id: bankId, purpose: 'event', key_id: keys.eventKeyId, secret_sealed: box.seal(keys.eventSecret), created_at: now },
  ];
}

/** JWT-mode partner credentials with fixed keys and secrets (hashed), the outlet endpoints enabled. */
export function partnerCredentialRows(
  partnerId: string,
  credentials: readonly { id: string; name: string; credentialKey: string; secret: string; contract: string; scopes: readonly string[] }[],
  now: Date,
) {
  return Promise.all(
    credentials.map(async (c) => ({
      id: c.id,
      partner_id: partnerId,
      name: c.name,
      credential_key: c.credentialKey,
      auth_mode: 'jwt',
      contract: c.contract,
      scopes: [...c.scopes],
      secret_hash: await hashSecret(c.secret),
      outlets_enabled: true,
      created_at: now,
    })),
  );
}
