import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspRecordSettlementDocument } from '@rest-adapters/generated/operations';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { assertConsistent, toSettlementInput, toSettlementResponse } from './mapper';
import { SettlementRequest, SettlementResponse } from './schema';

export default defineRoute({
  method: 'POST',
  url: '/psp/v1/settlements',
  summary: 'Receive a daily settlement batch from a bank',
  description:
    'Signed like events. Validated (net = gross − mdr_total), de-duplicated by settlement_id and external_event_id, stored, ' +
    'and matched against the NMID’s successful transactions of that business date, which are marked settled.',
  tags: ['psp: intake'],
  schema: { body: SettlementRequest, response: { 200: SettlementResponse, ...errorResponses(400, 401, 413, 429) } },
  operationId: 'PspRecordSettlement',
  authenticate: bankSignature('event'),
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    assertConsistent(body, ctx.principal);
    const target = await resolvePaymentTarget(ctx, { bankCode: actingBank(ctx.request).bankCode, nmid: body.nmid });
    const input = toSettlementInput(body, body, target);
    const { recordSettlement } = await ctx.execute(PspRecordSettlementDocument, { input });
    return toSettlementResponse(recordSettlement);
  },
});
