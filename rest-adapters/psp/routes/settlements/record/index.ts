import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspRecordSettlementDocument } from '@rest-adapters/generated/operations';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { assertConsistent, toSettlementInput, toSettlementRejection, toSettlementResponse } from './mapper';
import { SettlementRejection, SettlementRequest, SettlementResponse } from './schema';

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
  authenticate: bankSignature('event'),
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    assertConsistent(body, ctx.principal);
    const target = await resolvePaymentTarget(ctx, { bankCode: actingBank(ctx.request).bankCode, nmid: body.nmid });
    const input = toSettlementInput(body, body, target);
    const { recordSettlement } = await ctx.execute(PspRecordSettlementDocument, { input });
    if (recordSettlement.errorCode) {
      ctx.status(422);
      return toSettlementRejection(recordSettlement);
    }
    return toSettlementResponse(recordSettlement);
  },
});
