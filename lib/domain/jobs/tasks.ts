/**
 * Jobs one subgraph enqueues for another to run (DESIGN.md §6: a change another subgraph must act on travels on the
 * queue, never as a cross-schema write): the task's name and payload are the contract between the two.
 */

/** A successful payment of the live feed: enqueued by the transaction subgraph in the intake transaction, run by the merchant process. */
export const PAYMENT_RECEIVED_TASK = 'payment_received';

export interface PaymentReceivedPayload {
  /** The feed row's id (docs/decisions/0202-live-payment-events.md). */
  event_id: string;
  merchant_id: string;
  outlet_id: string;
  transaction_id: string;
  transaction_code: string;
  /** Whole rupiah. */
  amount: number;
  qris_payment_id: string | null;
}
