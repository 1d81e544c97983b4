import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { ViewerStatementsDocument } from '@rest-adapters/generated/operations';
import { HttpError } from '@lib/rest/error-body';
import { Month, STATEMENT_EXAMPLE, STATEMENT_OWNER_NOTE, Statement, toStatement } from '../statement';

const Query = Type.Object({ month: Type.Optional(Month) });
const Response = Type.Object({ items: Type.Array(Statement) }, { additionalProperties: false });

/** The owner's monthly statements (docs/decisions/0242-daily-reconciliation.md). */
export default defineRoute({
  method: 'GET',
  url: '/merchant/statements',
  summary: 'The merchant’s monthly statements',
  description: [
    'Monthly statements of the merchant and, for merchants whose month had payments at two or more outlets, of each outlet (`outlet_id`), newest month first. They are generated after each month ends (on the 1st, `STATEMENTS_RUN_AT` WITA) and on request (`POST /merchant/statements`); download one with `GET /merchant/statements/{id}/download`.',
    '',
    STATEMENT_OWNER_NOTE,
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { querystring: Query, response: { 200: Response, ...errorResponses(400, 401, 403) } },
  operationId: 'ViewerStatements',
  examples: { query: { month: '2026-10' }, responses: { 200: { items: [STATEMENT_EXAMPLE] } } },
  authenticate: userAuth,
  run: async ({ query }, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope) throw new HttpError(403, 'forbidden', 'the user acts for no merchant');
    const data = await ctx.execute(ViewerStatementsDocument, { month: query.month ?? null }, { acting: scope.acting });
    return { items: (data.viewerMembership?.merchant.statements ?? []).map(toStatement) };
  },
});
