import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { verifyServiceToken } from '@lib/auth/service-token';
import { ErrorCode } from '@lib/errors/app-error';
import { GATEWAY_BODY_LIMIT, GATEWAY_SERVICE_BODY_LIMIT } from '@lib/http/request-limits';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller presented a valid REST adapter service token (its body limit and deadline may be larger). */
    serviceCaller?: boolean;
  }
}

/** The answer to a body over the caller's limit: GraphQL-shaped, so every client reads a code. */
export const PAYLOAD_TOO_LARGE_BODY = {
  errors: [{ message: 'request body too large', extensions: { code: ErrorCode.PAYLOAD_TOO_LARGE } }],
};

class PayloadTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
  constructor() {
    super('request body too large');
  }
}

/**
 * The gateway's body limit by caller (docs/decisions/0008-request-size-and-time-limits.md): the REST
 * adapters' service principal may send up to GATEWAY_SERVICE_BODY_LIMIT (a sync push of 500 orders travels as
 * variables), every other caller GATEWAY_BODY_LIMIT. A declared length over the limit is refused at once; a body
 * without one is counted as it arrives and cut off at the limit.
 */
export function bodyLimitPlugin(app: FastifyInstance, serviceTokenSecrets: readonly string[]): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    req.serviceCaller = bearer !== undefined && (await verifyServiceToken(bearer, serviceTokenSecrets)) !== null;
    const limit = req.serviceCaller ? GATEWAY_SERVICE_BODY_LIMIT : GATEWAY_BODY_LIMIT;
    if (Number(req.headers['content-length'] ?? 0) > limit) throw new PayloadTooLarge();
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        counted.receivedEncodedLength = received;
        if (received > limit) done(new PayloadTooLarge());
        else done(null, chunk);
      },
    }) as Transform & { receivedEncodedLength?: number };
    payload.on('error', (error) => counted.destroy(error));
    return payload.pipe(counted);
  });
}
