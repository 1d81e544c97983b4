import { DEMO } from '@lib/domain/demo/demo-ids';
import { type EventRejection, UNAPPLIED_EVENT_CODES } from '@rest-adapters/psp/routes/events/record/schema';
import type { SandboxPaymentRequest, SandboxPaymentResult } from './schema';

const SANDBOX_OUTLET = DEMO.sandbox.outlets[0];

/** The examples of a simulated payment: the internal route's and the sandbox bank's own (POST /psp/v1/sandbox/payments). */
export const SANDBOX_PAYMENT_EXAMPLES: {
  body: SandboxPaymentRequest;
  responses: { 200: SandboxPaymentResult; 422: EventRejection };
} = {
  body: { nmid: SANDBOX_OUTLET.nmid, amount: 25000, reference_number: 'QRB0G7XK2M9D4TPA', event_id: 'SBX-EVT-20261125-000123' },
  responses: {
    200: {
      status: 'success',
      flow: 'transaction.created',
      event_id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a21',
      external_event_id: 'SBX-EVT-20261125-000123',
      bank_code: DEMO.sandbox.bank.code,
      merchant_id: DEMO.sandbox.merchantId,
      outlet_id: SANDBOX_OUTLET.id,
      event: {
        external_event_id: 'SBX-EVT-20261125-000123',
        event_type: 'qris.payment.success',
        nmid: SANDBOX_OUTLET.nmid,
        gross_amount: 25000,
        transaction_code: 'TRX-SBX-EVT-20261125-000123',
        reference_number: 'QRB0G7XK2M9D4TPA',
        transaction_at: '2026-11-25T09:41:27+07:00',
        payer_bank_code: 'SANDBOX',
        payer_bank_name: 'Sandbox',
        payer_name_masked: 'S****** P******',
        status: 'success',
      },
    },
    422: {
      error: `event stored but not applied: ${UNAPPLIED_EVENT_CODES.merchant_not_active}`,
      code: 'merchant_not_active',
      event_id: '019abc4e-8a02-7c11-b3f4-0e6d2a9c5b77',
      flow: 'recorded_unapplied',
      merchant_id: DEMO.sandbox.merchantId,
    },
  },
};
