import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '@lib/auth/principal';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { HttpError } from '@lib/rest/error-body';
import type { RouteRuntime } from '@lib/rest/route';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { PspRecordPaymentEventDocument, SandboxPaymentTargetDocument } from '@rest-adapters/generated/operations';
import { toEventRejection, toRecordInput } from '@rest-adapters/psp/routes/events/record/mapper';
import type { EventRejection, PaymentEvent } from '@rest-adapters/psp/routes/events/record/schema';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import type { SandboxPaymentRequest, SandboxPaymentResult } from './schema';

/** Who resolves the NMID of a sandbox bank's own simulation: the adapter as an internal caller. */
const SANDBOX_RESOLVER: Principal = { kind: 'internal', service: 'psp-sandbox' };

/** Banks send Jakarta times (psp-api.md §2). */
const JAKARTA = new ZonedCalendar('Asia/Jakarta');

export type SandboxPaymentOutcome = { status: 200; body: SandboxPaymentResult } | { status: 422; body: EventRejection };

/**
 * A bank's payment event, simulated in the sandbox (docs/decisions/0015-demo-data-and-sandbox.md): `POST /internal/sandbox/payment-events`
 * and `npm run ops -- sandbox:simulate-payment` both run this. The NMID must be a sandbox outlet's (a live one is 403
 * `live_nmid`, an unknown one 404, and nothing is written); the event is then what the outlet's sandbox bank would send
 * (`qris.payment.success`), and it goes to the intake exactly as that bank's `POST /psp/v1/events` does: the same two
 * operations, acting as the bank (resolve-nmid.graphql, then recordPaymentEvent). So the transaction, the match of a
 * pending dynamic QRIS by its bill number (reference_number), the payment feed, the live streams and the push all
 * follow as for a real bank, and a replayed event id is the intake's duplicate_skipped.
 *
 * `runtime.execute` acts as an internal caller by default (the route: the internal key; ops: an internal principal).
 */
export async function simulateSandboxPayment(
  runtime: RouteRuntime,
  input: SandboxPaymentRequest,
  options: { now?: Date; caller?: BankPrincipal } = {},
): Promise<SandboxPaymentOutcome> {
  const { caller, now = new Date() } = options;
  // A sandbox bank's own call (POST /psp/v1/sandbox/payments) resolves the NMID as an internal caller too, and any NMID
  // not its own is unknown to it, live or another sandbox bank's, as on its other paths.
  const { outletByNmid: outlet } = await runtime.execute(
    SandboxPaymentTargetDocument,
    { nmid: input.nmid },
    caller ? { acting: SANDBOX_RESOLVER } : undefined,
  );
  if (!outlet?.merchant || (caller && outlet.merchant.bank?.id !== caller.bankId))
    throw new HttpError(404, 'not_found', `no outlet has NMID ${input.nmid}`);
  const bank = outlet.merchant.bank;
  if (!outlet.merchant.sandbox || !bank?.sandbox || outlet.nmidBankCode !== bank.code)
    throw new HttpError(
      403,
      'live_nmid',
      `NMID ${input.nmid} is a live merchant's: the sandbox simulates payments to sandbox NMIDs only (ID99 followed by 13 digits)`,
    );

  const acting: BankPrincipal = { kind: 'bank', bankId: bank.id, bankCode: bank.code, tier: bank.tier, sandbox: true };
  const asBank: RouteRuntime = {
    config: runtime.config,
    execute: (operation, variables, options) => runtime.execute(operation, variables, { ...options, acting }),
  };
  const externalEventId = input.event_id ?? `SBX-EVT-${uuidv7()}`;
  const event = {
    external_event_id: externalEventId,
    event_type: 'qris.payment.success' as const,
    nmid: input.nmid,
    ...(input.tid ? { tid: input.tid } : {}),
    gross_amount: input.amount,
    transaction_code: `TRX-${externalEventId}`,
    ...(input.reference_number ? { reference_number: input.reference_number } : {}),
    transaction_at: JAKARTA.iso(now),
    payer_bank_code: 'SANDBOX',
    payer_bank_name: 'Sandbox',
    payer_name_masked: 'S****** P******',
    status: 'success' as const,
  } satisfies PaymentEvent;

  const target = await resolvePaymentTarget(asBank, { nmid: event.nmid, tid: event.tid });
  const { recordPaymentEvent: result } = await asBank.execute(PspRecordPaymentEventDocument, {
    input: toRecordInput(event, event, target),
  });
  if (result.errorCode) return { status: 422, body: toEventRejection(result) };
  return {
    status: 200,
    body: {
      status: result.status as SandboxPaymentResult['status'],
      flow: result.flow,
      event_id: result.eventId,
      external_event_id: externalEventId,
      bank_code: bank.code,
      // An applied event always resolved its NMID.
      merchant_id: result.merchantId!,
      outlet_id: result.outletId ?? null,
      event,
    },
  };
}
