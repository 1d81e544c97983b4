/**
 * The classes of difference the daily reconciliation finds (docs/decisions/0242-daily-reconciliation.md): the
 * transaction subgraph writes them, the core adapter documents them as the REST route's enum.
 */
export const DIFFERENCE_CLASSES = [
  'payment_without_settlement',
  'settlement_without_payment',
  'amount_mismatch',
  'fee_deviation',
  'qris_order_without_payment',
  'unmatched_payment',
  'late_settlement',
] as const;

export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number];
