import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { Nullable } from '@lib/rest/schema-helpers';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { RequestStatementDocument } from '@rest-adapters/generated/operations';
import { Month, STATEMENT_EXAMPLE, STATEMENT_OWNER_NOTE, Statement, toStatement } from '../statement';
import { DEMO } from '@lib/domain/demo/demo-ids';

const Body = Type.Object(
  {
    month: Month,
    outlet_id: Type.Optional(
      Nullable(Type.String({ format: 'uuid', description: 'One outlet of the merchant; omitted or null: the whole merchant.' })),
    ),
  },
  { additionalProperties: false },
);

/** The owner asks for a month's statement: queued on the job queue, answered pending (docs/decisions/0242-daily-reconciliation.md). */
export default defineRoute({
  method: 'POST',
  url: '/merchant/statements',
  summary: 'Request a month’s statement',
  description: [
    'Queues the generation of the statement of `month` for the whole merchant, or for one outlet (`outlet_id`), and answers it `pending`; it turns `ready` within seconds (list it with `GET /merchant/statements`). Asking again regenerates the same statement (same `id`, files replaced), never a second one. When it is ready, every owner whose email is verified gets an email with its figures and where to download it.',
    '',
    '400 `bad_request` for a month outside 2020-01 … the current month; 404 `not_found` for an outlet that is not the merchant’s. ' +
      STATEMENT_OWNER_NOTE,
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { body: Body, response: { 202: Statement, ...errorResponses(400, 401, 403, 404) } },
  operationId: 'RequestStatement',
  examples: {
    body: { month: '2026-10', outlet_id: DEMO.outlets[0].id },
    responses: {
      202: { ...STATEMENT_EXAMPLE, outlet_id: DEMO.outlets[0].id, status: 'pending', requested_at: '2026-11-29T10:15:00.000+08:00' },
    },
  },
  authenticate: userAuth,
  run: async ({ body }, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope) throw new HttpError(403, 'forbidden', 'the user acts for no merchant');
    const data = await ctx.execute(
      RequestStatementDocument,
      { month: body.month, outletId: body.outlet_id ?? null },
      { acting: scope.acting },
    );
    ctx.status(202);
    return toStatement(data.requestStatement);
  },
});
