import { inTimeRule } from '@lib/time/api-time';
import { CORE_TIMES } from '../times';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import type { Config } from '@lib/config/config';
import { subgraphDirectDatabaseUrl } from '@lib/db/database-urls';
import { RedisSignalSubscriber } from '@lib/events/redis-signal';
import { LiveFeedHub, PAYMENT_FEED_PG_CHANNEL } from '@lib/events/live-feed';
import { PgListener } from '@lib/events/pg-listener';
import { type SseWriter, frameOf } from '@lib/events/sse';
import { HttpError } from '@lib/rest/error-body';
import type { BackgroundRuntime } from '@lib/rest/route';
import { PaymentFeedAllDocument, type PaymentFeedEventFieldsFragment, PaymentFeedDocument } from '@rest-adapters/generated/operations';
import { OrderSettlementDispatcher } from './order-settlement-dispatcher';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live payment feed of this REST process (rest-adapters/core/live/live-payments.ts). */
    livePayments: LivePayments;
  }
}

export type FeedEvent = PaymentFeedEventFieldsFragment;

/** The adapter reads the feed for all of a merchant's streams at once, as a service (each stream filters by its scope). */
const FEED_READER: Principal = { kind: 'internal', service: 'live-events' };
/**
 * The `retry:` hint of the streams a stopping process ends (docs/decisions/0203-compose-and-image-proof.md): by then
 * the load balancer sends new connections to the other copies, so the client may come back soon.
 */
export const RECONNECT_AFTER_DRAIN_MS = 1000;
/** Longest Last-Event-ID replay: beyond it a stream is told `reset` and starts at the head. */
export const MAX_REPLAY_EVENTS = 1000;

/**
 * The live payment feed in one REST process (docs/decisions/0202-live-payment-events.md): the hub that fans the
 * feed out to the open streams, woken by PostgreSQL's NOTIFY on the feed's channel (when this process runs the
 * subgraphs, `REST_SUBGRAPHS=in-process`, the default) or else by the Redis signal (when REDIS_URL is set), and a
 * slow periodic re-read as the safety net; the per-user stream count and the dispatcher that has paid QRIS payments
 * mark their sales orders paid. (The push notifications of the feed are jobs of the merchant process: 0205-job-queue.md.)
 */
export class LivePayments {
  readonly hub: LiveFeedHub<FeedEvent>;
  private readonly open = new Map<string, number>();
  private readonly wakeUp?: PgListener | RedisSignalSubscriber;
  private readonly orders: OrderSettlementDispatcher;

  constructor(
    readonly config: Config,
    runtime: BackgroundRuntime,
    log: FastifyInstance['log'],
  ) {
    this.hub = new LiveFeedHub<FeedEvent>({
      readAll: async (afterId, limit) => (await runtime.execute(PaymentFeedAllDocument, { afterId, limit }, FEED_READER)).paymentFeedAll,
      read: async (merchantId, afterId, limit) =>
        (await runtime.execute(PaymentFeedDocument, { merchantId, afterId, limit }, FEED_READER)).paymentFeed.events,
      pollMs: config.live.pollMs,
      keepAliveMs: config.live.keepAliveMs,
      log,
    });
    this.orders = new OrderSettlementDispatcher(runtime, log);
    // One read of the whole feed serves every merchant: what the signal names does not matter here.
    const wake = () => {
      this.hub.wake();
      this.orders.wake();
    };
    // Signals may have been missed while disconnected.
    const wakeAll = () => {
      this.hub.wakeAll();
      this.orders.wake();
    };
    if (config.restSubgraphs === 'in-process') {
      // This process runs the transaction subgraph on its own database role: one more session of that role LISTENs.
      this.wakeUp = new PgListener({
        databaseUrl: subgraphDirectDatabaseUrl(config, 'transaction'),
        channel: PAYMENT_FEED_PG_CHANNEL,
        what: 'live payment feed',
        log,
        onNotify: wake,
        onListening: wakeAll,
      });
    } else if (config.redisUrl) {
      this.wakeUp = new RedisSignalSubscriber(config.redisUrl, log, wake, wakeAll);
    }
  }

  async start(): Promise<void> {
    this.hub.start();
    this.orders.start(this.config.live.pollMs);
    await this.wakeUp?.start();
  }

  /** Ends every open stream with a reconnect hint of RECONNECT_AFTER_DRAIN_MS: the client comes back (Last-Event-ID) to another copy. */
  async close(): Promise<void> {
    this.hub.close(RECONNECT_AFTER_DRAIN_MS);
    await this.orders.stop();
    await this.wakeUp?.close();
  }

  /** Ends `sse` after LIVE_MAX_STREAM_MS: the client reconnects (Last-Event-ID), authenticated and scoped afresh. */
  bound(sse: SseWriter): void {
    const timer = setTimeout(() => sse.end(), this.config.live.maxStreamMs);
    sse.whenEnded(() => clearTimeout(timer));
  }

  /** Counts an open stream of `owner` (a user, or a merchant on the service surface); 429 beyond the limit. */
  openStream(owner: string): () => void {
    const count = this.open.get(owner) ?? 0;
    if (count >= this.config.live.maxStreamsPerUser)
      throw new HttpError(429, 'rate_limit_exceeded', `at most ${this.config.live.maxStreamsPerUser} open event streams`, 5);
    this.open.set(owner, count + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const left = (this.open.get(owner) ?? 1) - 1;
      if (left <= 0) this.open.delete(owner);
      else this.open.set(owner, left);
    };
  }
}

/** The core adapter's background work: the live payment feed, decorated on the app as `livePayments`. */
export async function startLivePayments(app: FastifyInstance, runtime: BackgroundRuntime): Promise<void> {
  const live = new LivePayments(runtime.config, runtime, app.log.child({ component: 'live-payments' }));
  app.decorate('livePayments', live);
  // Before the server closes: open streams would keep it waiting.
  app.addHook('preClose', async () => live.close());
  await live.start();
}

const frames = new WeakMap<FeedEvent, string>();

/** The SSE frame of a feed event, serialised once however many streams it goes to (the hub hands them one object). */
export function feedEventFrame(e: FeedEvent): string {
  let frame = frames.get(e);
  if (frame === undefined) frames.set(e, (frame = frameOf(e.kind, feedEventBody(e), e.id)));
  return frame;
}

/** The JSON of a feed event on the streams (snake_case and times in the core API's rule, as its REST answers). */
export function feedEventBody(e: FeedEvent) {
  return {
    event_id: e.id,
    type: e.kind,
    merchant_id: e.merchantId,
    outlet_id: e.outletId,
    terminal_id: e.terminalId,
    transaction_id: e.transactionId,
    transaction_code: e.transactionCode,
    reference_number: e.referenceNumber,
    nmid: e.nmid,
    amount: e.amount,
    transaction_at: inTimeRule(CORE_TIMES, e.transactionAt) as string,
    qris_payment: e.qrisPaymentId ? { id: e.qrisPaymentId, bill_number: e.billNumber, sales_order_id: e.salesOrderId } : null,
    created_at: inTimeRule(CORE_TIMES, e.createdAt) as string,
  };
}
