import { v7 as uuidv7 } from 'uuid';
import { signUserAccessToken } from '@lib/auth/user-token';
import { adminQuery } from './test-database';
import type { TestStack } from './test-stack';

/**
 * A live session for an existing user, written as the merchant subgraph writes it (a fixture for tests of
 * bearer routes that are not about logging in), with its signed access token as headers.
 */
export async function sessionFor(stack: TestStack, userId: string): Promise<{ authorization: string }> {
  const sessionId = uuidv7();
  await adminQuery(
    stack.database.adminUrl,
    `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at)
     values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
    [sessionId, userId],
  );
  const { token } = await signUserAccessToken({ userId, sessionId }, stack.config.secrets.userTokenSecret);
  return { authorization: `Bearer ${token}` };
}

let addressSeq = 0;
/** A client address of its own (the per-address OTP cap and the per-IP route limits count per address). */
export function freshAddress(): string {
  addressSeq += 1;
  return `10.${(addressSeq >> 16) & 255}.${(addressSeq >> 8) & 255}.${addressSeq & 255}`;
}
