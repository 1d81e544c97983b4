import { ACTING_PRINCIPAL_HEADER, type Principal, decodeActingPrincipal } from '../../lib/auth/principal';
import { verifyServiceToken } from '../../lib/auth/service-token';
import { AppError, ErrorCode } from '../../lib/errors/app-error';

/**
 * Who calls the gateway. No credential: anonymous (public reference data only). A service token: the
 * service itself, or the acting principal it asserts. User and operator tokens come with their modules.
 */
export async function authenticateCaller(
  headers: Record<string, string | string[] | undefined>,
  serviceTokenSecret: string,
): Promise<Principal> {
  const authorization = headers.authorization;
  const acting = headers[ACTING_PRINCIPAL_HEADER];
  if (!authorization) {
    if (acting) throw unauthenticated('an acting principal needs a service token');
    return { kind: 'anonymous' };
  }
  const match = typeof authorization === 'string' ? /^Bearer (\S+)$/i.exec(authorization) : null;
  if (!match) throw unauthenticated('malformed Authorization header');
  const service = await verifyServiceToken(match[1], serviceTokenSecret);
  if (!service) throw unauthenticated('invalid or expired token');
  if (!acting) return { kind: 'service', service };
  const principal = typeof acting === 'string' ? decodeActingPrincipal(acting) : null;
  if (!principal) throw unauthenticated('invalid acting principal');
  return principal;
}

function unauthenticated(message: string): AppError {
  const error = new AppError(message, ErrorCode.UNAUTHENTICATED, { http: { status: 401 } });
  return error;
}
