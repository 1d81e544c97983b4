import { createHmac, timingSafeEqual } from 'node:crypto';

/** Largest allowed distance between a signed timestamp and now, in every signed scheme (DESIGN.md §4). */
export const SIGNATURE_WINDOW_SECS = 300;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The signed string of bank requests (psp-api.md §5): method, path, timestamp and raw body joined by "\n".
 * For lookups the path is the request target with its query string and the body is empty (DESIGN.md §4).
 */
export function signedString(method: string, target: string, timestamp: string, rawBody: string): string {
  return `${method.toUpperCase()}\n${target}\n${timestamp}\n${rawBody}`;
}

export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Constant-time comparison of a presented lowercase-hex signature with the expected one. */
export function signatureMatches(expectedHex: string, presented: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(presented)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(presented, 'hex'));
}

/** Seconds between an RFC 3339 timestamp (offset required) and now; null when malformed. */
export function skewSecs(timestamp: string, now = Date.now()): number | null {
  if (!RFC3339.test(timestamp)) return null;
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? null : Math.abs(now - at) / 1000;
}
