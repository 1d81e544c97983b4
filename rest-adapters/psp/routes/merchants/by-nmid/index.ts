import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { PspMerchantDetail } from '../psp-merchant.schema';
import { lookUp } from './lookup';
import { toByNmidResponse } from './mapper';
import { ByNmidParams, ByNmidQuery } from './schema';
import { DEMO_PSP_MERCHANT, DEMO_PSP_OUTLETS, DEMO_PSP_OWNER } from '../psp-merchant.examples';
import { DEMO } from '@lib/domain/demo/demo-ids';

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants/by-nmid/:nmid',
  summary: 'Find the merchant of an NMID (any of its outlets)',
  description:
    'The most frequent call. Answers are cached for 30 s per bank.' +
    ' include_outlets=true fills outlets; include_owners=true fills owners (PspOwner: user_id, full_name, phone and email masked, role, since), otherwise both are empty.' +
    " Each outlet carries settlement_account: the account to pay it into, its own or else the merchant's corporate one (source), null when none is set; a merchant's change shows only after its cooling-off (48 h).",
  tags: ['psp: lookups'],
  schema: { params: ByNmidParams, querystring: ByNmidQuery, response: { 200: PspMerchantDetail, ...errorResponses(400, 401, 404, 429) } },
  operationId: 'PspMerchantByNmid',
  examples: {
    params: { nmid: DEMO.outlets[0].nmid },
    query: { include_outlets: true, include_owners: true },
    responses: {
      200: {
        merchant: { ...DEMO_PSP_MERCHANT, device_model: 'Sunmi V2s', device_status: 'active' },
        outlets: DEMO_PSP_OUTLETS,
        owners: [DEMO_PSP_OWNER],
      },
    },
    errors: { not_found: 'no merchant of this bank has NMID ID1026112299999' },
  },
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 1000, windowSecs: 60 },
  cache: 'per-principal',
  cacheSecs: 30,
  // Cache misses of every bank that arrive together are looked up together (lookup.ts).
  run: async ({ params, query }, ctx) =>
    toByNmidResponse(
      await lookUp({
        runtime: ctx,
        bank: actingBank(ctx.request),
        log: ctx.request.log,
        nmid: params.nmid,
        includeOutlets: query.include_outlets,
        includeOwners: query.include_owners,
      }),
    ),
});
