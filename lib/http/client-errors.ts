import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** A request Node refuses before the framework routes it: its status, a stable code and a message. */
export interface ClientRefusal {
  status: number;
  code: string;
  message: string;
}

/**
 * A fastify `clientErrorHandler` that writes Node's own refusals (headers too large, a request not received in time,
 * a malformed request) to the socket in the server's error body (`bodyOf`) instead of fastify's default one
 * (docs/decisions/0006-error-body-mapping.md).
 */
export function refuseClientErrors(bodyOf: (refusal: ClientRefusal) => unknown): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal: ClientRefusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? { status: 431, code: 'request_header_fields_too_large', message: 'request headers too large' }
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? { status: 408, code: 'request_timeout', message: 'request not received in time' }
          : { status: 400, code: 'bad_request', message: 'malformed HTTP request' };
    const body = JSON.stringify(bodyOf(refusal));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/**
 * Draining on SIGTERM: in-flight requests finish; one arriving on an open connection while the server closes is
 * answered by `refuse` (the server's 503 with Retry-After) instead of fastify's own body. Use with
 * `return503OnClosing: false`.
 */
export function refuseWhileClosing(app: FastifyInstance, refuse: (reply: FastifyReply) => unknown): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_req, reply) => {
    if (closing) return refuse(reply);
  });
}
