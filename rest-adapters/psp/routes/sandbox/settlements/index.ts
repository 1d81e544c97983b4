import { DEMO } from '@lib/domain/demo/demo-ids';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { PspRecordSettlementDocument, PspSandboxSettlementDayDocument } from '@rest-adapters/generated/operations';
import { toSettlementInput, toSettlementRejection, toSettlementResponse } from '@rest-adapters/psp/routes/settlements/record/mapper';
import { SettlementRejection } from '@rest-adapters/psp/routes/settlements/record/schema';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { SANDBOX_ERRORS, SANDBOX_ROUTE_NOTES, sandboxCaller, sandboxSignature } from '../sandbox-bank';
import { SandboxSettlementRequest, SandboxSettlementResult } from './schema';

/** Banks send Jakarta times and business dates (psp-api.md §2). */
const JAKARTA = new ZonedCalendar('Asia/Jakarta');
const OUTLET = DEMO.sandbox.outlets[0];

/** The settlement a sandbox bank would send for one NMID and day, through the settlement intake's own operation. */
export default defineRoute({
  method: 'POST',
  url: '/psp/v1/sandbox/settlements',
  summary: 'Simulate the settlement of a day of one of your sandbox NMIDs',
  description: [
    'Your sandbox sends itself the settlement you would send to `POST /psp/v1/settlements` for the NMID and business date: `gross_amount` the sum of its successful transactions of that Jakarta day not settled yet, `mdr_total` their MDR, `net_amount` the difference. It goes through that same intake as you, so those transactions are marked settled and the answer is the intake’s, with the settlement as sent. A day with nothing unsettled records a settlement of 0.',
    '',
    '- **404 `not_found`**: the NMID is not one of your sandbox outlets. Nothing is written.',
    '- **Replays**: the same `settlement_id` again answers `duplicate_skipped` with the first settlement_ref; nothing new is settled or stored.',
    ...SANDBOX_ROUTE_NOTES,
  ].join('\n'),
  tags: ['psp: sandbox'],
  schema: {
    body: SandboxSettlementRequest,
    response: { 200: SandboxSettlementResult, 422: SettlementRejection, ...errorResponses(400, 401, 403, 404, 413, 429) },
  },
  operationId: 'PspSandboxSettlement',
  errors: { 403: ['live_bank'], 422: ['unknown_nmid'] },
  examples: {
    body: { nmid: OUTLET.nmid, settlement_date: '2026-11-24' },
    responses: {
      200: {
        status: 'success',
        settlement_ref: '019abc4f-0a1b-7d2c-8e3f-4a5b6c7d8e9f',
        settlement_id: `SBX-STL-${OUTLET.nmid}-2026-11-24`,
        matched_count: 3,
        matched_amount: 75000,
        gross_amount: 75000,
        discrepancy_amount: 0,
        reconciled: true,
        settlement: {
          external_event_id: `SBX-STL-${OUTLET.nmid}-2026-11-24`,
          settlement_id: `SBX-STL-${OUTLET.nmid}-2026-11-24`,
          nmid: OUTLET.nmid,
          bank_code: DEMO.sandbox.bank.code,
          gross_amount: 75000,
          mdr_total: 525,
          net_amount: 74475,
          settlement_date: '2026-11-24',
          completed_at: '2026-11-25T02:15:00+07:00',
        },
      },
      422: {
        error: 'settlement stored but not applied: the NMID is not one of this bank’s',
        code: 'unknown_nmid',
        settlement_ref: '019abc4f-1b2c-7e3d-9f40-5b6c7d8e9fa0',
        settlement_id: `SBX-STL-${OUTLET.nmid}-2026-11-24`,
      },
    },
    errors: { ...SANDBOX_ERRORS, not_found: `no outlet of yours has NMID ${DEMO.outlets[0].nmid}` },
  },
  authenticate: sandboxSignature,
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    const bank = sandboxCaller(ctx.request);
    const target = await resolvePaymentTarget(ctx, { nmid: body.nmid });
    if (!target) throw new HttpError(404, 'not_found', `no outlet of yours has NMID ${body.nmid}`);
    const now = new Date();
    const date = body.settlement_date ?? JAKARTA.dateOf(now);
    const { sandboxSettlementDay: day } = await ctx.execute(PspSandboxSettlementDayDocument, { nmid: body.nmid, settlementDate: date });
    const settlementId = body.settlement_id ?? `SBX-STL-${body.nmid}-${date}`;
    const settlement = {
      external_event_id: settlementId,
      settlement_id: settlementId,
      nmid: body.nmid,
      bank_code: bank.bankCode,
      gross_amount: day.grossAmount,
      mdr_total: day.mdrTotal,
      net_amount: day.grossAmount - day.mdrTotal,
      settlement_date: date,
      completed_at: JAKARTA.iso(now),
    };
    const { recordSettlement } = await ctx.execute(PspRecordSettlementDocument, {
      input: toSettlementInput(settlement, settlement, target),
    });
    if (recordSettlement.errorCode) {
      ctx.status(422);
      return toSettlementRejection(recordSettlement);
    }
    return { ...toSettlementResponse(recordSettlement), settlement };
  },
});
