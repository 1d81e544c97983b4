import type { FastifyInstance } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import type { BackgroundRuntime } from '@lib/rest/route';
import {
  ClaimPaymentFeedNotificationsDocument,
  CompletePaymentFeedNotificationsDocument,
  NotifyPaymentReceivedDocument,
} from '@rest-adapters/generated/operations';

const DISPATCHER: Principal = { kind: 'internal', service: 'live-push' };
const BATCH = 50;

/**
 * Push notifications of the live feed ("Pembayaran diterima Rp 25.000", docs/decisions/0202-live-payment-events.md):
 * claims feed events whose push is not sent (the claim is a lease: copies never share an event, and one a crashed
 * copy held is claimed again after 60 s, at most 5 times), asks the merchant subgraph to push each, and marks them
 * sent. Woken by the feed signal and a periodic tick; one round at a time per process.
 */
export class PushDispatcher {
  private running?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly runtime: BackgroundRuntime,
    private readonly log: FastifyInstance['log'],
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.wake(), intervalMs).unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        this.again = false;
        const { claimPaymentFeedNotifications: events } = await this.runtime.execute(
          ClaimPaymentFeedNotificationsDocument,
          { limit: BATCH },
          DISPATCHER,
        );
        const done: string[] = [];
        await Promise.all(
          events.map(async (e) => {
            try {
              await this.runtime.execute(
                NotifyPaymentReceivedDocument,
                {
                  input: {
                    merchantId: e.merchantId,
                    outletId: e.outletId,
                    // Claims never include cancellations, the feed's only rows without a transaction.
                    transactionId: e.transactionId!,
                    transactionCode: e.transactionCode!,
                    amount: e.amount,
                    qrisPaymentId: e.qrisPaymentId,
                    eventId: e.id,
                  },
                },
                DISPATCHER,
              );
              done.push(e.id);
            } catch (error) {
              // Left claimed: tried again when the lease ends.
              this.log.warn({ err: error, event_id: e.id }, 'live push: notification failed');
            }
          }),
        );
        if (done.length > 0) await this.runtime.execute(CompletePaymentFeedNotificationsDocument, { ids: done }, DISPATCHER);
        if ((events.length < BATCH && !this.again) || this.stopped) return;
      }
    } catch (error) {
      this.log.warn({ err: error }, 'live push: claim failed');
    }
  }
}
