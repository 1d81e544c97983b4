import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';

/** The bank answers within 10 s, or the attempt failed (psp-api.md §6). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The part of an answer kept with an attempt, in bytes. */
export const EXCERPT_BYTES = 1024;

/** What one POST came to: a 2xx (delivered), another status, or no answer (network error, timeout). */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Null when a 2xx came back. */
  error: string | null;
  latencyMs: number;
  /** The answer's first KiB (UTF-8, cut at a character boundary), null without an answer. */
  excerpt: string | null;
}

/**
 * Posts stored webhook bodies to a bank's endpoint, byte-identical on every attempt, signed at send time
 * (DESIGN.md §4, psp-api.md §5): `X-Service-Event-ID`, `X-Service-Timestamp` (Unix seconds) and
 * `X-Service-Signature: sha256=<hex HMAC(secret, timestamp + "." + body)>`; bounded by the 10 s deadline.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs = DELIVERY_TIMEOUT_MS) {
    this.agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  async send(url: string, secret: string, eventId: string, body: string): Promise<SendOutcome> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'qris-merchant-webhooks/1',
          'x-service-event-id': eventId,
          'x-service-timestamp': timestamp,
          'x-service-signature': `sha256=${signature}`,
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const excerpt = await readExcerpt(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}`, latencyMs: latency(), excerpt };
    } catch (error) {
      return { ok: false, statusCode: null, error: describeSendError(error, this.timeoutMs), latencyMs: latency(), excerpt: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The first EXCERPT_BYTES of a body; the rest is discarded unread. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    // an answer cut short still has its status
  } finally {
    body.destroy();
  }
  return utf8Prefix(Buffer.concat(chunks), EXCERPT_BYTES);
}

/** At most `bytes` bytes of UTF-8, never half a character. */
export function utf8Prefix(buffer: Buffer, bytes: number): string {
  if (buffer.length <= bytes) return buffer.toString('utf8');
  let end = bytes;
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

function describeSendError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string };
  if (
    e.name === 'TimeoutError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  return `${e.code ?? e.name ?? 'Error'}: ${e.message ?? String(error)}`.slice(0, 500);
}
