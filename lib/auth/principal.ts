import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { hs256Key, verifyHs256 } from './hs256-key';

/**
 * Who is acting. REST adapters authenticate outside callers and assert the acting principal to the
 * gateway under their own service token; the gateway signs the principal for the subgraphs, which
 * enforce data scope themselves. The schema validates what an adapter asserts.
 */
const BankPrincipalSchema = Type.Object({
  kind: Type.Literal('bank'),
  bankId: Type.String(),
  bankCode: Type.String(),
  tier: Type.Integer(),
  /**
   * A sandbox bank (docs/decisions/0015-demo-data-and-sandbox.md): set by the bank adapter from the credential's bank.
   * Only the sandbox operations read it, and they check the bank's row again.
   */
  sandbox: Type.Optional(Type.Literal(true)),
});

export const PrincipalSchema = Type.Union([
  Type.Object({ kind: Type.Literal('anonymous') }),
  Type.Object({ kind: Type.Literal('service'), service: Type.String() }),
  Type.Object({ kind: Type.Literal('internal'), service: Type.String() }),
  Type.Object({ kind: Type.Literal('operator'), operatorId: Type.String(), roles: Type.Array(Type.String()) }),
  /**
   * An app user (core auth access token). `merchantId`, `role`, `outletIds` (empty = all) are set by the core
   * adapter only after the merchant subgraph answered the user's membership (viewerMembership); subgraphs
   * other than merchant scope user data by them and refuse a user principal without them.
   */
  Type.Object({
    kind: Type.Literal('user'),
    userId: Type.String(),
    sessionId: Type.Optional(Type.String()),
    merchantId: Type.Optional(Type.String()),
    role: Type.Optional(Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('staff'), Type.Literal('viewer')])),
    outletIds: Type.Optional(Type.Array(Type.String())),
    /** A staff member limited to one device (terminal id). */
    terminalId: Type.Optional(Type.String()),
  }),
  Type.Object({
    kind: Type.Literal('partner'),
    partnerId: Type.String(),
    credentialId: Type.String(),
    scopes: Type.Array(Type.String()),
    contract: Type.Union([Type.Literal('A'), Type.Literal('B')]),
    /** Merchants the partner adapter verified in scope for this request (partnerMerchantAccess); subgraphs other than merchant refuse the rest. */
    merchantIds: Type.Optional(Type.Array(Type.String())),
  }),
  BankPrincipalSchema,
  /**
   * Several banks at once: the bank adapter sends the intake calls of several banks, each verified by its own
   * signature, as one operation (a micro-batch). Every item of such an operation names its bank, which must be
   * one of these; subgraphs then scope each item as that bank alone (lib/domain/access/bank-scope.ts).
   */
  Type.Object({ kind: Type.Literal('banks'), banks: Type.Array(BankPrincipalSchema, { minItems: 1, maxItems: 1000 }) }),
]);
export type Principal = Static<typeof PrincipalSchema>;
const principalCheck = TypeCompiler.Compile(PrincipalSchema);

/** An acting principal as asserted by a service (base64url JSON), or null when it is not a valid one. */
export function decodeActingPrincipal(header: string): Principal | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return principalCheck.Check(value) ? value : null;
  } catch {
    return null;
  }
}

export function encodeActingPrincipal(principal: Principal): string {
  return Buffer.from(JSON.stringify(principal)).toString('base64url');
}

export type PrincipalKind = Principal['kind'];

export const PRINCIPAL_HEADER = 'x-principal';
export const ACTING_PRINCIPAL_HEADER = 'x-acting-principal';
const PRINCIPAL_TTL_SECS = 60;
const ISSUER = 'qris-gateway';
const AUDIENCE = 'qris-subgraph';

/** The gateway's signed statement "this request acts as <principal>", valid for one minute. */
export async function signPrincipal(principal: Principal, secret: string): Promise<string> {
  return new SignJWT({ p: principal })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${PRINCIPAL_TTL_SECS}s`)
    .sign(await hs256Key(secret));
}

/** Verifies a principal header under any accepted secret; null for anything missing, expired, forged or malformed. */
async function verified(
  token: string | undefined,
  secrets: string | readonly string[],
): Promise<{ principal: Principal; expiresAt: number } | null> {
  if (!token) return null;
  const payload = await verifyHs256(token, secrets, { issuer: ISSUER, audience: AUDIENCE });
  return payload && principalCheck.Check(payload.p) && payload.exp ? { principal: payload.p, expiresAt: payload.exp * 1000 } : null;
}

/**
 * A subgraph's check of the principal header, remembering tokens it has verified until they expire: a signer reuses
 * a token for many calls (gateway/src/executor.ts), so most checks are one map lookup instead of an HMAC and a
 * schema check. Only valid tokens are kept; an expired one is verified again (and refused).
 */
export class PrincipalVerifier {
  private readonly tokens = new LRUCache<string, { principal: Principal; expiresAt: number }>({ max: 10_000 });

  /** `secrets`: the accepted ones (Config['secrets'].accepted.principalSecret), or one. */
  constructor(private readonly secrets: string | readonly string[]) {}

  async verify(token: string | undefined): Promise<Principal | null> {
    const known = token ? this.tokens.get(token) : undefined;
    if (known && known.expiresAt > Date.now()) return known.principal;
    const result = await verified(token, this.secrets);
    if (result) this.tokens.set(token!, result);
    else if (token) this.tokens.delete(token);
    return result?.principal ?? null;
  }
}
