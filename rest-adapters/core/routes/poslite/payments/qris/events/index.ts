import { Type } from '@sinclair/typebox';
import { SseWriter } from '@lib/events/sse';
import { errorResponses } from '@lib/rest/error-body';
import type { FeedEvent } from '@rest-adapters/core/live/live-payments';
import { EventStream, STREAM_RULES, StreamQuery } from '@rest-adapters/core/live/stream-schema';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PaymentFeedDocument, QrisPaymentDocument } from '@rest-adapters/generated/operations';
import { toQrisPayment } from '../qris-payment';
import { DEMO_QRIS_PAYMENT } from '@rest-adapters/core/examples';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** The expiry is checked this long after `expires_at` (the payment's status is computed on read). */
const EXPIRY_MARGIN_MS = 50;
const TERMINAL = new Set(['paid', 'expired', 'cancelled']);

/**
 * One dynamic QRIS payment as it is paid or expires (issue 17 §3, docs/decisions/0202-live-payment-events.md): the
 * POS shows the code and waits on this stream instead of polling GET …/payments/qris/{id}.
 */
export default posRoutes({
  method: 'GET',
  path: '/payments/qris/:id/events',
  summary: 'Live stream of one dynamic QRIS payment: paid or expired (Server-Sent Events)',
  description: [
    'One event, then the stream ends: `paid` as soon as a bank event settles the payment (`id:` its feed event id), `cancelled` as soon as POST …/payments/qris/{id}/cancel cancels it (`id:` its feed event id), or `expired` when `expires_at` passes while it is still pending; `data:` is the payment as GET …/payments/qris/{id} answers it (status included). A payment already paid, expired or cancelled when the stream opens answers that event at once. A reconnect (with or without `Last-Event-ID`) reads the payment afresh, so nothing is missed.',
    'Access as GET …/payments/qris/{id}: 404 `not_found` for another merchant’s or an unknown payment, 403 for a member whose outlets do not include its outlet.',
    STREAM_RULES,
  ].join('\n\n'),
  schema: { params: Params, querystring: StreamQuery, response: { 200: EventStream, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'QrisPaymentEvents',
  examples: { params: { id: DEMO_QRIS_PAYMENT.id }, query: { last_event_id: '1042' } },
  run: async ({ params }, { execute, request, takeOver }) => {
    const live = request.server.livePayments;
    const acting = request.acting;
    const release = live.openStream(acting?.kind === 'user' ? `user:${acting.userId}` : `merchant:${request.posMerchantId}`);
    let head: string;
    let payment: ReturnType<typeof toQrisPayment>;
    try {
      // The head first: a payment settled after it is in the feed after it, one settled before shows in the read.
      head = (await execute(PaymentFeedDocument, { afterId: null, limit: 1 })).paymentFeed.headId;
      payment = toQrisPayment((await execute(QrisPaymentDocument, { id: params.id })).qrisPayment);
    } catch (error) {
      release();
      throw error;
    }

    const sse = new SseWriter(takeOver());
    live.bound(sse);
    let timer: NodeJS.Timeout | undefined;
    const stream = {
      merchantId: request.posMerchantId!,
      lastId: BigInt(head),
      accepts: (e: FeedEvent) => e.qrisPaymentId === payment.id,
      deliver: (events: FeedEvent[]) => finish(events[0]),
      keepAlive: () => sse.comment('keep-alive'),
      end: (retryMs?: number) => sse.end(retryMs),
    };
    /**
     * The payment's feed event says what became of it: sent as the payment without reading it again (one gateway
     * round trip less between the bank's answer and the device).
     */
    function finish(e: FeedEvent): void {
      if (!sse.isOpen) return;
      if (e.kind === 'qris_payment.paid')
        sse.event('paid', { ...payment, status: 'paid', paid_at: e.transactionAt, transaction_id: e.transactionId }, e.id);
      else if (e.kind === 'qris_payment.cancelled') sse.event('cancelled', { ...payment, status: 'cancelled' }, e.id);
      else return void settle(e.id);
      sse.end();
    }
    let settling = false;
    /** Reads the payment again and sends its final status, if it has one; ends the stream then. */
    async function settle(eventId?: string): Promise<void> {
      if (settling || !sse.isOpen) return;
      settling = true;
      try {
        const now = toQrisPayment((await execute(QrisPaymentDocument, { id: payment.id })).qrisPayment);
        if (!TERMINAL.has(now.status)) {
          // The expiry check came a little early for the subgraph's clock: look again shortly.
          if (eventId === undefined) timer = setTimeout(() => void settle(), 1000);
          return;
        }
        sse.event(now.status, now, now.status === 'expired' ? undefined : eventId);
        sse.end();
      } catch (error) {
        request.log.warn({ err: error, qris_payment_id: payment.id }, 'payment stream: read failed; ending it (the client reconnects)');
        sse.end();
      } finally {
        settling = false;
      }
    }
    sse.whenEnded(() => {
      clearTimeout(timer);
      live.hub.remove(stream);
      release();
    });
    if (TERMINAL.has(payment.status)) {
      sse.event(payment.status, payment);
      sse.end();
      return '';
    }
    live.hub.add(stream);
    const untilExpiry = new Date(payment.expires_at).getTime() - Date.now() + EXPIRY_MARGIN_MS;
    timer = setTimeout(() => void settle(), Math.max(untilExpiry, 0));
    return '';
  },
});
