import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

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
