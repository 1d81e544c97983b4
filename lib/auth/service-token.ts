import { SignJWT } from 'jose';
import { hs256Key, verifyHs256 } from './hs256-key';

/**
 * Service tokens: how a REST adapter proves itself to the gateway. HS256 with SERVICE_TOKEN_SECRET,
 * audience "qris-gateway", one hour; adapters renew them well before expiry.
 */
const AUDIENCE = 'qris-gateway';
const ISSUER = 'qris-services';
const LIFETIME_SECS = 3600;

export async function issueServiceToken(service: string, secret: string): Promise<string> {
  return new SignJWT({ kind: 'service' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(service)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_SECS}s`)
    .sign(await hs256Key(secret));
}

/** The service name of a valid service token (signed with any of the accepted secrets), or null. */
export async function verifyServiceToken(token: string, secrets: string | readonly string[]): Promise<string | null> {
  const payload = await verifyHs256(token, secrets, { audience: AUDIENCE, issuer: ISSUER });
  return payload?.kind === 'service' && typeof payload.sub === 'string' ? payload.sub : null;
}

/** Holds a service token and renews it at half its lifetime, so callers never send an expired one. */
export class ServiceTokenHolder {
  private token?: string;
  private issuedAt = 0;

  constructor(
    private readonly service: string,
    private readonly secret: string,
  ) {}

  async get(): Promise<string> {
    if (!this.token || Date.now() - this.issuedAt > (LIFETIME_SECS * 1000) / 2) {
      this.token = await issueServiceToken(this.service, this.secret);
      this.issuedAt = Date.now();
    }
    return this.token;
  }
}
