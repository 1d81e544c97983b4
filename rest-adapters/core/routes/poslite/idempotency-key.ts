import type { FastifyRequest } from 'fastify';
import { HttpError } from '@lib/rest/error-body';

/**
 * The `Idempotency-Key` of a point-of-sale creation (dynamic QRIS payments, till closes): 1–255 visible ASCII
 * characters, one header at most (else 400 `bad_request`); null without one. Keys are per merchant, and the
 * subgraph that stores the creation decides a replay by the key and the request's hash
 * (docs/decisions/0201-qris-payloads.md).
 */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const key = request.headers['idempotency-key'];
  if (Array.isArray(key)) throw new HttpError(400, 'bad_request', 'one Idempotency-Key header');
  if (key !== undefined && !/^[\x21-\x7E]{1,255}$/.test(key))
    throw new HttpError(400, 'bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  return key ?? null;
}

/** What a creation's description says of its Idempotency-Key. */
export function idempotencyRule(what: string): string {
  return `Idempotency: with an \`Idempotency-Key\` header (1–255 visible ASCII characters), the same key and body answer 201 with the ${what} the first request created (header \`Idempotent-Replayed: true\`); the same key with another body is 409 \`idempotency_key_reused\`. Keys are per merchant.`;
}
