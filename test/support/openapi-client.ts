import { createHmac } from 'node:crypto';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@rest-adapters/generated/openapi';

/** A typed client of the REST APIs, generated from /openapi.json (openapi-typescript types + openapi-fetch). */
export type RestClient = ReturnType<typeof createClient<paths>>;

export function restClient(baseUrl: string, ...middleware: Middleware[]): RestClient {
  const client = createClient<paths>({ baseUrl });
  for (const m of middleware) client.use(m);
  return client;
}

/** The header names of a signed scheme (psp-api.md §5, partner HMAC mode). */
export const SIGNED_HEADERS = {
  bankLookup: ['X-API-Key-ID', 'X-Timestamp', 'X-Signature'],
  bankEvent: ['X-PSP-Key-ID', 'X-PSP-Timestamp', 'X-PSP-Signature'],
  partner: ['X-Partner-Key-ID', 'X-Partner-Timestamp', 'X-Partner-Signature'],
} as const;

/**
 * Signs every request as the walkthroughs (docs/api/) describe: lowercase hex HMAC-SHA256 under the key's secret of
 * `METHOD\npath?query\ntimestamp\nraw body`, with an RFC 3339 timestamp in +07:00.
 */
export function signing(scheme: keyof typeof SIGNED_HEADERS, keyId: string, secret: string, now = () => new Date()): Middleware {
  const [keyHeader, timestampHeader, signatureHeader] = SIGNED_HEADERS[scheme];
  return {
    async onRequest({ request }) {
      const url = new URL(request.url);
      const body = request.body ? await request.clone().text() : '';
      const timestamp = jakartaTime(now());
      const signature = createHmac('sha256', secret)
        .update(`${request.method}\n${url.pathname}${url.search}\n${timestamp}\n${body}`)
        .digest('hex');
      request.headers.set(keyHeader, keyId);
      request.headers.set(timestampHeader, timestamp);
      request.headers.set(signatureHeader, signature);
      return request;
    },
  };
}

/** `Authorization: Bearer <token>` on every request. */
export function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

/** An instant as RFC 3339 in Asia/Jakarta (+07:00), seconds precision. */
export function jakartaTime(at: Date): string {
  return `${new Date(at.getTime() + 7 * 3600_000).toISOString().slice(0, 19)}+07:00`;
}
