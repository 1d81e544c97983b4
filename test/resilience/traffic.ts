import { createHash, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { demoBankEventRequest, demoBankSignedRequest } from '../support/bank-events';
import { sleep } from './processes';

/**
 * A steady stream of the writes a database failure must not lose, over real HTTP to the REST process: signed bank
 * payment events, signed settlements and point-of-sale pushes of sales orders. Every request has an id of its own (a
 * retry sends the same id, as a bank or a device does); every answer is kept with the phase it was sent in.
 */
export type Kind = 'event' | 'settlement' | 'pos';

export interface Answer {
  kind: Kind;
  id: string;
  phase: string;
  /** When it was sent (ms since the epoch). */
  sentAt: number;
  status: number;
  ms: number;
  contentType: string;
  body: string;
}

const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
const jakarta = () => new Date(Date.now() + 7 * 3600_000).toISOString().replace('Z', '+07:00');

export class WriteTraffic {
  readonly answers: Answer[] = [];
  phase = 'baseline';
  private seq = 0;
  private running = false;
  private workers: Promise<void>[] = [];
  private readonly agent = new Agent({ connections: 16 });

  constructor(
    private readonly restOrigin: string,
    /** How long a request may wait for its answer before it counts as hung. */
    private readonly timeoutMs: number,
    /** The point-of-sale pushes: the internal key, the merchant and a variant of its catalogue. */
    private readonly pos: { apiKey: string; merchantId: string; outletId: string; variantId: string; price: number },
    /** Starts every id of this stream (`r1-`), so that two streams on one database tell their rows apart. */
    readonly prefix = '',
  ) {}

  /** One request of `kind` with `id` (a new one, or a retry of an earlier id). */
  async send(kind: Kind, id: string): Promise<Answer> {
    const { path, headers, payload } = this.build(kind, id);
    const started = Date.now();
    const phase = this.phase;
    let answer: Answer;
    try {
      const res = await request(`${this.restOrigin}${path}`, {
        method: 'POST',
        headers,
        body: payload,
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs + 5000,
        bodyTimeout: this.timeoutMs + 5000,
      });
      const body = await res.body.text();
      answer = {
        kind,
        id,
        phase,
        sentAt: started,
        status: res.statusCode,
        ms: Date.now() - started,
        contentType: String(res.headers['content-type'] ?? ''),
        body,
      };
    } catch (error) {
      answer = { kind, id, phase, sentAt: started, status: 0, ms: Date.now() - started, contentType: '', body: (error as Error).message };
    }
    this.answers.push(answer);
    return answer;
  }

  private build(kind: Kind, id: string): { path: string; headers: Record<string, string>; payload: string } {
    if (kind === 'event') {
      const event = demoBankEventRequest({
        external_event_id: id,
        event_type: 'transaction.success',
        gross_amount: 25_000,
        transaction_code: `TRX-${id}`,
      });
      return { path: '/psp/v1/events', ...event };
    }
    if (kind === 'settlement') {
      const signed = demoBankSignedRequest('/psp/v1/settlements', {
        external_event_id: id,
        settlement_id: `STL-${id}`,
        nmid: DEMO.outlets[0].nmid,
        bank_code: DEMO.bank.code,
        gross_amount: 10_000,
        mdr_total: 70,
        net_amount: 9_930,
        settlement_date: today(),
        completed_at: jakarta(),
      });
      return { path: '/psp/v1/settlements', ...signed };
    }
    // A device's push of one paid sales order: entity and outbox ids derive from `id`, so a retry is the same item.
    const { price } = this.pos;
    return {
      path: '/poslite/sync/push',
      headers: { 'content-type': 'application/json', 'x-internal-api-key': this.pos.apiKey, 'x-merchant-id': this.pos.merchantId },
      payload: JSON.stringify({
        items: [
          {
            outbox_id: posOutboxId(id),
            entity_type: 'sales_order',
            entity_id: posOrderId(id),
            op: 'create',
            payload: {
              outlet_id: this.pos.outletId,
              status: 'open',
              transacted_at: Date.now(),
              items: [{ line_no: 1, variant_id: this.pos.variantId, quantity: 1, unit_price_amount: price, line_total_amount: price }],
              payments: [],
              subtotal_amount: price,
              total_amount: price,
              paid_amount: 0,
              change_amount: 0,
            },
          },
        ],
      }),
    };
  }

  /** `workers` concurrent senders per kind (the POS pushes of one merchant run one at a time on the server anyway). */
  start(workers: Record<Kind, number>): void {
    this.running = true;
    this.workers = (Object.entries(workers) as [Kind, number][]).flatMap(([kind, n]) =>
      Array.from({ length: n }, async () => {
        while (this.running) {
          this.seq += 1;
          const answer = await this.send(kind, `${this.prefix}${kind}-${this.seq}-${randomUUID().slice(0, 8)}`);
          // A client backs off when refused; a tight loop of instant 503s would only measure the loop.
          await sleep(answer.status === 200 ? 15 : 100);
        }
      }),
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  inPhase(phase: string): Answer[] {
    return this.answers.filter((a) => a.phase === phase);
  }

  /** Every id of `kind` answered 200 at least once. */
  acknowledged(kind: Kind): string[] {
    return [...new Set(this.answers.filter((a) => a.kind === kind && a.status === 200).map((a) => a.id))];
  }

  /** Ids of `kind` never answered 200 (refused in an outage): what a client retries. */
  unanswered(kind: Kind): string[] {
    const ok = new Set(this.acknowledged(kind));
    return [...new Set(this.answers.filter((a) => a.kind === kind && !ok.has(a.id)).map((a) => a.id))];
  }

  /** Waits until the last `n` answers of every kind are 200 and sent in this phase; how long that took. */
  async recovered(limitMs: number, n = 3): Promise<number> {
    const started = Date.now();
    const kinds = [...new Set(this.answers.map((a) => a.kind))];
    while (Date.now() - started < limitMs) {
      const ok = kinds.every((kind) => {
        const tail = this.answers.filter((a) => a.kind === kind).slice(-n);
        return tail.length === n && tail.every((a) => a.status === 200 && a.phase === this.phase);
      });
      if (ok) return Date.now() - started;
      await sleep(100);
    }
    throw new Error(`no recovery within ${limitMs} ms (${this.phase}); last answers: ${JSON.stringify(this.answers.slice(-4))}`);
  }
}

export const posOrderId = (id: string) => uuidFrom(id, 'a');
export const posOutboxId = (id: string) => uuidFrom(id, 'b');

/** A stable UUID (version 4 shape) for a request id: the device's ids of its sales order and outbox item. */
function uuidFrom(id: string, variant: string): string {
  const hex = createHash('sha256').update(id).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-${variant}${hex.slice(15, 18)}-${hex.slice(18, 30)}`;
}

/**
 * Answers that break the outage contract: anything but 200 or the documented 503 body (service_unavailable, an error
 * message without internals, retry_after_secs), or any answer slower than `limitMs`.
 */
export function uncleanAnswers<A extends Pick<Answer, 'status' | 'ms' | 'contentType' | 'body'>>(answers: A[], limitMs: number): A[] {
  return answers.filter((a) => {
    if (a.ms > limitMs) return true;
    if (a.status === 200) return false;
    if (a.status !== 503 || !a.contentType.startsWith('application/json')) return true;
    const body = JSON.parse(a.body) as Record<string, unknown>;
    return !(
      Object.keys(body).sort().join() === 'code,error,retry_after_secs' &&
      body.code === 'service_unavailable' &&
      typeof body.error === 'string' &&
      !/at .+\(.+:\d+:\d+\)|<html|ECONN|127\.0\.0\.1/i.test(body.error) &&
      Number.isInteger(body.retry_after_secs)
    );
  });
}
