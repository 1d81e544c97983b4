import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { OutboundRefusedError, type OutboundUrlPolicy } from './outbound-url';

/** The bank answers within 10 s, or the attempt failed (psp-api.md §6). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * What one POST came to: a 2xx (delivered), another status, or no answer (network error, timeout, an address the
 * outbound policy refuses). The answer's body is read and discarded: it is never kept nor shown (an endpoint cannot
 * relay what it reaches to whoever reads the attempts).
 */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Null when a 2xx came back. */
  error: string | null;
  latencyMs: number;
}

/**
 * Posts stored webhook bodies to a bank's endpoint, byte-identical on every attempt, signed at send time
 * (DESIGN.md §4, psp-api.md §5): `X-Service-Event-ID`, `X-Service-Timestamp` (Unix seconds) and
 * `X-Service-Signature: sha256=<hex HMAC(secret, timestamp + "." + body)>`; bounded by the 10 s deadline. The URL is
 * checked by the outbound policy before each send, and the connection resolves its host through the policy's lookup,
 * so it connects only to addresses that passed (docs/decisions/0031-webhooks-and-job-queue.md).
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly policy: OutboundUrlPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    this.agent = new Agent({ connect: { timeout: timeoutMs, lookup: policy.lookup }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  async send(url: string, secret: string, eventId: string, body: string): Promise<SendOutcome> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      this.policy.check(url);
    } catch (error) {
      return { ok: false, statusCode: null, error: `refused: ${(error as Error).message}`, latencyMs: 0 };
    }
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
      await response.body.dump().catch(() => {});
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}`, latencyMs: latency() };
    } catch (error) {
      return { ok: false, statusCode: null, error: describeSendError(error, this.timeoutMs), latencyMs: latency() };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function describeSendError(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusedError) return error.message;
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
