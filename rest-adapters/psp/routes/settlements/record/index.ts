import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspRecordSettlementDocument } from '@rest-adapters/generated/operations';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { assertConsistent, toSettlementInput, toSettlementRejection, toSettlementResponse } from './mapper';
import { SettlementRejection, SettlementRequest, SettlementResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

export default defineRoute({
  method: 'POST',
  url: '/psp/v1/settlements',
  summary: 'Receive a daily settlement batch from a bank',
  description:
    'Signed like events. Validated (net = gross − mdr_total), de-duplicated by settlement_id and external_event_id, stored, ' +
    'and matched against the NMID’s successful transactions of that business date, which are marked settled (200). ' +
    'A settlement whose NMID is not one of the bank’s (unknown, not yet assigned, or another bank’s) is stored for ' +
    'reconciliation and answers 422 with the error body (error, code unknown_nmid) plus settlement_ref and settlement_id. ' +
    'Sending it again (same settlement_id and external_event_id) is a new attempt: 200 success once the NMID resolves, ' +
    '422 again otherwise; an applied one answers duplicate_skipped.',
  tags: ['psp: intake'],
  schema: {
    body: SettlementRequest,
    response: { 200: SettlementResponse, 422: SettlementRejection, ...errorResponses(400, 401, 413, 429) },
  },
  operationId: 'PspRecordSettlement',
  errors: { 422: ['unknown_nmid'] },
  examples: {
    body: {
      external_event_id: 'BDEMO-STL-20261124-0001',
      settlement_id: 'STL-BDEMO-20261124-0001',
      nmid: DEMO.outlets[0].nmid,
      bank_code: DEMO.bank.code,
      gross_amount: 1250000,
      mdr_total: 8750,
      net_amount: 1241250,
      settlement_date: '2026-11-24',
      completed_at: '2026-11-25T02:15:00+07:00',
    },
    responses: {
      200: {
        status: 'success',
        settlement_ref: '019abc4f-0a1b-7d2c-8e3f-4a5b6c7d8e9f',
        settlement_id: 'STL-BDEMO-20261124-0001',
        matched_count: 37,
        matched_amount: 1250000,
        gross_amount: 1250000,
        discrepancy_amount: 0,
        reconciled: true,
      },
      422: {
        error: 'the NMID is not one of this bank’s',
        code: 'unknown_nmid',
        settlement_ref: '019abc4f-1b2c-7e3d-9f40-5b6c7d8e9fa0',
        settlement_id: 'STL-BDEMO-20261124-0001',
      },
    },
  },
  authenticate: bankSignature('event'),
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    assertConsistent(body, ctx.principal);
    const target = await resolvePaymentTarget(ctx, { nmid: body.nmid });
    const input = toSettlementInput(body, body, target);
    const { recordSettlement } = await ctx.execute(PspRecordSettlementDocument, { input });
    if (recordSettlement.errorCode) {
      ctx.status(422);
      return toSettlementRejection(recordSettlement);
    }
    return toSettlementResponse(recordSettlement);
  },
});
