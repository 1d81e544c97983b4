import { memberScopeOf, scopeTest } from '@lib/domain/access/user-scope';
import type { UserPrincipal } from '@lib/domain/access/user-scope';
import { SseWriter } from '@lib/events/sse';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { type FeedEvent, MAX_REPLAY_EVENTS, feedEventFrame } from '@rest-adapters/core/live/live-payments';
import { EventStream, STREAM_RULES, StreamQuery, lastEventIdOf } from '@rest-adapters/core/live/stream-schema';
import { posUserAuth } from '@rest-adapters/core/routes/poslite/pos-route';
import { PaymentFeedDocument } from '@rest-adapters/generated/operations';

const PAGE = 200;

/** The feed's received payments; a cancelled dynamic QRIS (`qris_payment.cancelled`) is for its own stream only. */
const isPaymentEvent = (e: FeedEvent) => e.kind !== 'qris_payment.cancelled';

/**
 * The merchant's payments as they happen (issue 17 §3, docs/decisions/0202-live-payment-events.md): every successful
 * transaction of the member's outlets, and every dynamic QRIS payment it settled, from the transaction subgraph's feed.
 */
export default defineRoute({
  method: 'GET',
  url: '/merchant/payments/events',
  summary: 'Live stream of the merchant’s received payments (Server-Sent Events)',
  description: [
    'Bearer access token; the merchant is the user’s. Every member role may listen; a member sees only the events of its outlets (and of its device, for a staff member bound to one) — as of when the stream opened.',
    'Events: `transaction.success` (a successful transaction, e.g. a payment of the static QRIS) and `qris_payment.paid` (a successful transaction that settled a dynamic QRIS payment: `qris_payment` names it), each once. `id:` is the feed’s event id, increasing; `data:` `{event_id, type, merchant_id, outlet_id, terminal_id, transaction_id, transaction_code, reference_number, nmid, amount, transaction_at, qris_payment: {id, bill_number, sales_order_id} | null, created_at}`.',
    'Resume: a reconnect with `Last-Event-ID` (or `?last_event_id=`) first replays the events after it, from the last 24 hours and at most 1,000; when more were missed the stream sends `event: reset` (data `{reason: "too_far_behind"}`) and continues from the newest event: reload the lists. Without it the stream starts with the next event.',
    STREAM_RULES,
  ].join('\n\n'),
  tags: ['core: merchant'],
  schema: { querystring: StreamQuery, response: { 200: EventStream, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'MerchantPaymentEvents',
  examples: { query: { last_event_id: '1042' } },
  authenticate: posUserAuth,
  rateLimit: { max: 60, windowSecs: 60 },
  run: async ({ query }, ctx) => {
    const principal = ctx.principal as UserPrincipal;
    const scope = memberScopeOf(principal);
    const live = ctx.request.server.livePayments;
    const release = live.openStream(`user:${principal.userId}`);
    const replay: FeedEvent[] = [];
    let start: bigint;
    let reset = false;
    try {
      const resumeAfter = lastEventIdOf(ctx.request.headers, query);
      // Read as the user: the subgraph keeps only the member's outlets.
      let page = (await ctx.execute(PaymentFeedDocument, { merchantId: scope.merchantId, afterId: resumeAfter ?? null, limit: PAGE }))
        .paymentFeed;
      replay.push(...page.events.filter(isPaymentEvent));
      while (resumeAfter !== undefined && BigInt(page.lastId) < BigInt(page.headId) && replay.length <= MAX_REPLAY_EVENTS) {
        page = (await ctx.execute(PaymentFeedDocument, { merchantId: scope.merchantId, afterId: page.lastId, limit: PAGE })).paymentFeed;
        replay.push(...page.events.filter(isPaymentEvent));
      }
      start = BigInt(resumeAfter === undefined ? page.headId : page.lastId);
      if (replay.length > MAX_REPLAY_EVENTS) {
        reset = true;
        replay.length = 0;
        start = BigInt(page.headId);
      }
    } catch (error) {
      release();
      throw error;
    }

    const sse = new SseWriter(ctx.takeOver());
    live.bound(sse);
    // Compiled once per stream: the hub asks it for every event of the merchant.
    const inScope = scopeTest(scope);
    if (replay.length > 0) sse.frame(replay.map(feedEventFrame).join(''));
    if (reset) sse.event('reset', { reason: 'too_far_behind' }, start.toString());
    const stream = {
      merchantId: scope.merchantId,
      lastId: start,
      accepts: (e: FeedEvent) => isPaymentEvent(e) && inScope(e.outletId, e.terminalId),
      deliver: (events: FeedEvent[]) => sse.frame(events.map(feedEventFrame).join('')),
      keepAlive: () => sse.comment('keep-alive'),
      end: (retryMs?: number) => sse.end(retryMs),
    };
    sse.whenEnded(() => {
      live.hub.remove(stream);
      release();
    });
    if (sse.isOpen) live.hub.add(stream);
    return '';
  },
});
