import { createHash } from 'node:crypto';
import { BadInputError } from '@lib/errors/app-error';

/**
 * The stored form of an app's device id. A trusted device id lets resolve-phone open a session without an OTP,
 * so it is a credential: only its SHA-256 is kept (the ids are long random per-install values, so a plain
 * hash suffices: there is nothing small to brute-force).
 */
export function deviceHash(deviceId: string): string {
  return createHash('sha256').update(`device:${deviceId}`).digest('hex');
}

/**
 * A device id as the app sends it: 16–200 visible characters. It must be a random per-install value (a UUID
 * is 36): a short or guessable id would let anyone who knows a phone number log in from a "trusted device".
 */
export function requireDeviceId(deviceId: string): string {
  const id = deviceId.trim();
  if (!/^[\x21-\x7e]{16,200}$/.test(id))
    throw new BadInputError('device_id must be 16 to 200 visible characters (a random per-install id)');
  return id;
}
