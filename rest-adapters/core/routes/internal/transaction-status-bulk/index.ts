import { type Static, Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { parseGatewayCallback } from '../transaction-status/gateway-status';
import { TransactionStatusResult, processCallback } from '../transaction-status/process';
import { DEMO_GATEWAY_CALLBACK, DEMO_TRANSACTION_STATUS } from '@rest-adapters/core/examples';

export const MAX_BULK_ITEMS = 500;
/** Items processed at once: bounded so one batch cannot take every gateway connection. */
const CONCURRENCY = 8;

const BulkBody = Type.Object({
  items: Type.Array(Type.Unknown({ description: 'A gateway payload, as for the single endpoint.' }), {
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
  }),
});

const ItemResult = Type.Union([
  Type.Object(
    { index: Type.Integer(), status: Type.Literal('processed'), result: TransactionStatusResult },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      index: Type.Integer(),
      status: Type.Literal('error'),
      error: Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
]);

const BulkResponse = Type.Object(
  { processed_count: Type.Integer(), error_count: Type.Integer(), items: Type.Array(ItemResult) },
  { additionalProperties: false },
);

/**
 * core-api.md §4 bulk form: 1 to 500 payloads, each handled as by the single endpoint. The batch answers 200 with
 * one result per item in input order — `{index, status: processed, result}` or `{index, status: error, error:
 * {code, message}}` with the code the single endpoint would answer — so one bad item never fails the others.
 * More than 500 items, or no items array, is 400 for the whole request.
 */
export default defineRoute({
  method: 'POST',
  url: '/internal/transactions/transaction-status/bulk',
  summary: 'Receive many payment gateway transaction statuses',
  description: [
    'Server to server, with `X-Internal-API-Key` (missing or wrong → 401 `unauthorized`). 1 to 500 payloads, each validated and processed exactly as by `POST /internal/transactions/transaction-status`, 8 at a time.',
    '',
    '- 200 with one result per item, in input order: `{index, status: processed, result}` or `{index, status: error, error: {code, message}}` with the code the single endpoint would have answered (e.g. `bad_request`, `merchant_not_found`), so one bad item never fails the others.',
    '- 400 `bad_request` for the whole request when `items` is missing, empty or longer than 500.',
  ].join('\n'),
  tags: ['core: internal'],
  schema: { body: BulkBody, response: { 200: BulkResponse, ...errorResponses(400, 401, 413) } },
  // Unique (the single endpoint is ResolvePaymentTarget).
  operationId: 'ResolvePaymentTargetBulk',
  examples: {
    body: { items: [DEMO_GATEWAY_CALLBACK, { ...DEMO_GATEWAY_CALLBACK, referenceNo: 'PG20261125000124', merchantId: 'ID1026119999999' }] },
    responses: {
      200: {
        processed_count: 1,
        error_count: 1,
        items: [
          { index: 0, status: 'processed', result: DEMO_TRANSACTION_STATUS },
          {
            index: 1,
            status: 'error',
            error: { code: 'merchant_not_found', message: 'merchantId matches no outlet NMID or MID, merchant NMID or merchant id' },
          },
        ],
      },
    },
  },
  authenticate: internalAuth,
  run: async ({ body }, ctx) => {
    const results: Static<typeof ItemResult>[] = new Array(body.items.length);
    let next = 0;
    const worker = async () => {
      while (next < body.items.length) {
        const index = next++;
        const parsed = parseGatewayCallback(body.items[index]);
        try {
          if (!parsed.ok) throw new HttpError(400, 'bad_request', parsed.message);
          results[index] = { index, status: 'processed', result: await processCallback(ctx, parsed.value) };
        } catch (error) {
          if (!(error instanceof HttpError) || error.status === 401) throw error;
          results[index] = { index, status: 'error', error: { code: error.code, message: error.message } };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, body.items.length) }, worker));
    const processed = results.filter((r) => r.status === 'processed').length;
    return { processed_count: processed, error_count: results.length - processed, items: results };
  },
});
