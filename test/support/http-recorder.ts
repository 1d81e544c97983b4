import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

export type Responder = (
  request: RecordedRequest,
) => { status: number; body?: unknown; contentType?: string } | Promise<{ status: number; body?: unknown; contentType?: string }>;

/**
 * A real local HTTP server standing in for an outside party (push or messaging provider, identity provider):
 * it records every request and answers with `respond` (which a test may replace at any time).
 */
export class HttpRecorder {
  readonly requests: RecordedRequest[] = [];
  private server?: Server;
  url = '';

  constructor(public respond: Responder) {}

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : null;
        } catch {
          json = null;
        }
        const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
        this.requests.push(recorded);
        const answer = await this.respond(recorded);
        const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' });
        res.end(payload);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

/**
 * Local messaging (WhatsApp Cloud API shape), push (FCM shape) and email providers that answer every request with
 * success, and the stack settings that point the platform at them.
 */
export async function startMessageProviders(): Promise<{
  messaging: HttpRecorder;
  push: HttpRecorder;
  email: HttpRecorder;
  env: Record<string, string>;
}> {
  const messaging = await new HttpRecorder(() => ({
    status: 200,
    body: { messaging_product: 'whatsapp', messages: [{ id: `wamid.${randomUUID()}` }] },
  })).start();
  const push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/demo/messages/${randomUUID()}` } })).start();
  const email = await new HttpRecorder(() => ({ status: 200, body: { id: `email-${randomUUID()}` } })).start();
  return {
    messaging,
    push,
    email,
    env: {
      MESSAGING_PROVIDER_URL: `${messaging.url}/v1/messages`,
      PUSH_PROVIDER_URL: `${push.url}/v1/send`,
      EMAIL_PROVIDER_URL: `${email.url}/v1/email`,
    },
  };
}
