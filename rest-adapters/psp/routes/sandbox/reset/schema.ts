import { type Static, Type } from '@sinclair/typebox';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const SandboxReset = Type.Object(
  {
    merchant_ids: Type.Array(Type.String({ format: 'uuid' }), {
      description: 'Your sandbox merchants: kept, with their outlets, NMIDs, terminals and owners, and active again.',
    }),
    merchants_restored: Count('Merchants whose status or suspension state was restored (0 when all were as issued).'),
    deleted: Type.Object(
      {
        transactions: Count('Transactions (refunds included) your sandbox recorded.'),
        payment_events: Count('Payment events you or the simulation sent.'),
        settlements: Count('Settlements you or the simulation sent.'),
        qris_payments: Count('Your sandbox merchants’ dynamic QRIS payments.'),
        webhook_deliveries: Count('Webhook deliveries to your endpoint, with their attempts.'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type SandboxReset = Static<typeof SandboxReset>;
