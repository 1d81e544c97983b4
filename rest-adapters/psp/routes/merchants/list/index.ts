import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { PspMerchantListDocument } from '@rest-adapters/generated/operations';
import { toListResponse } from './mapper';
import { ListQuery, ListResponse } from './schema';
import { DEMO_PSP_MERCHANT, DEMO_PSP_OUTLETS } from '../psp-merchant.examples';

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants',
  summary: "List the calling bank's active merchants",
  description:
    'Keyset-paged by creation order: a page never repeats or skips a merchant while others are added or updated.' +
    " With include_outlets=true each outlet carries settlement_account (its own, else the merchant's corporate account; null when none).",
  tags: ['psp: lookups'],
  schema: { querystring: ListQuery, response: { 200: ListResponse, ...errorResponses(400, 401, 429) } },
  operationId: 'PspMerchantList',
  examples: {
    query: { limit: 50, updated_since: '2026-11-01T00:00:00+07:00', include_outlets: true },
    responses: {
      200: {
        items: [{ ...DEMO_PSP_MERCHANT, outlets: DEMO_PSP_OUTLETS }],
        pagination: { next_cursor: 'eyJjIjoiMjAyNi0xMS0wMlQwMjowMDowMFoiLCJpIjoiMDE5YTAwMDAifQ', has_more: true },
        meta: { returned_count: 1, active_only: true },
      },
    },
  },
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 60, windowSecs: 60 },
  run: async ({ query }, { execute }) => {
    const data = await execute(PspMerchantListDocument, {
      first: query.limit,
      after: query.cursor ?? null,
      updatedSince: query.updated_since ?? null,
      categoryCode: query.category_code ?? null,
      includeOutlets: query.include_outlets,
    });
    return toListResponse(data, query);
  },
});
