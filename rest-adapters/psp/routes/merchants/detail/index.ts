import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { PspMerchantDetailDocument } from '@rest-adapters/generated/operations';
import { PspMerchantDetail } from '../psp-merchant.schema';
import { toDetailResponse } from './mapper';
import { DetailParams, DetailQuery } from './schema';
import { DEMO_PSP_MERCHANT, DEMO_PSP_OUTLETS } from '../psp-merchant.examples';
import { DEMO } from '@lib/domain/demo/demo-ids';

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants/:id',
  summary: "Get one of the calling bank's merchants",
  description:
    'Answers are cached for 30 s per bank.' +
    ' include_outlets=true fills outlets; include_owners=true fills owners (PspOwner: user_id, full_name, phone and email masked, role, since), otherwise both are empty.' +
    " Each outlet carries settlement_account: the account to pay it into, its own or else the merchant's corporate one (source), null when none is set; a merchant's change shows only after its cooling-off (48 h).",
  tags: ['psp: lookups'],
  schema: { params: DetailParams, querystring: DetailQuery, response: { 200: PspMerchantDetail, ...errorResponses(400, 401, 404, 429) } },
  operationId: 'PspMerchantDetail',
  examples: {
    params: { id: DEMO.merchantId },
    query: { include_outlets: true, include_owners: false },
    responses: {
      200: {
        merchant: { ...DEMO_PSP_MERCHANT, device_model: 'Sunmi V2s', device_status: 'active' },
        outlets: DEMO_PSP_OUTLETS,
        owners: [],
      },
    },
  },
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 600, windowSecs: 60 },
  cache: 'per-principal',
  cacheSecs: 30,
  run: async ({ params, query }, { execute }) => {
    const data = await execute(PspMerchantDetailDocument, {
      id: params.id,
      includeOutlets: query.include_outlets,
      includeOwners: query.include_owners,
    });
    return toDetailResponse(data);
  },
});
