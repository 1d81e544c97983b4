import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { resolvePaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { type SettlementResultData, assertConsistent, toSettlementInput, toSettlementResponse } from './mapper';
import { SettlementRequest, SettlementResponse } from './schema';

const record = loadOperation(__dirname);

export default defineRoute({
  method: 'POST',
  url: '/psp/v1/settlements',
  summary: 'Receive a daily settlement batch from a bank',
  description:
    'Signed like events. Validated (net = gross − mdr_total), de-duplicated by settlement_id and external_event_id, stored, ' +
    'and matched against the NMID’s successful transactions of that business date, which are marked settled.',
  tags: ['psp: intake'],
  schema: { body: SettlementRequest, response: { 200: SettlementResponse, ...errorResponses(400, 401, 413, 429) } },
  operation: record,
  authenticate: bankSignature('event'),
  rateLimit: { max: 600, windowSecs: 60 },
  handle: async ({ body }, runtime, req) => {
    assertConsistent(body, req.acting);
    const target = await resolvePaymentTarget(runtime, { bankCode: actingBank(req).bankCode, nmid: body.nmid });
    const input = toSettlementInput(body, body, target);
    const { recordSettlement } = await runtime.run<{ recordSettlement: SettlementResultData }>(record, { input });
    return toSettlementResponse(recordSettlement);
  },
});
