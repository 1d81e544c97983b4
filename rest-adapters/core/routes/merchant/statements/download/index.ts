import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { StatementFileDocument } from '@rest-adapters/generated/operations';
import { STATEMENT_EXAMPLE, STATEMENT_OWNER_NOTE } from '../statement';

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });
const Query = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('pdf'), Type.Literal('csv')], {
      default: 'pdf',
      description: '`pdf` (application/pdf, default) or `csv` (text/csv, UTF-8, one line per transaction, settlement and total).',
    }),
  ),
});
const File = Type.String({ description: 'The statement file (binary for pdf), with `Content-Disposition: attachment`.' });

/** One file of a statement of the owner's merchant (docs/decisions/0242-daily-reconciliation.md). */
export default defineRoute({
  method: 'GET',
  url: '/merchant/statements/:id/download',
  summary: 'Download a statement (PDF or CSV)',
  description: [
    'The PDF: A4, in Indonesian, amounts in Rupiah, times in WITA — the summary (opening unsettled amount, gross, MDR, daily service fees, net, refunds, settlements), a chart of the daily takings, the settlements, the reconciliation result and every transaction. The CSV: columns `record` (`transaction`, `settlement` or `total`), `id`, `transaction_at`, `transaction_code`, `status`, `outlet_id`, `nmid`, `gross_amount`, `mdr_fee_amount`, `service_fee_amount`, `refunded_amount`, `net_amount`, `settlement_status`; amounts are whole rupiah.',
    '',
    '404 `not_found` for a statement of another merchant or one not generated yet. ' + STATEMENT_OWNER_NOTE,
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { params: Params, querystring: Query, response: { 200: File, ...errorResponses(400, 401, 403, 404) } },
  operationId: 'StatementFile',
  examples: { params: { id: STATEMENT_EXAMPLE.id }, query: { format: 'pdf' } },
  authenticate: userAuth,
  run: async ({ params, query }, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope) throw new HttpError(403, 'forbidden', 'the user acts for no merchant');
    const { statementFile: file } = await ctx.execute(
      StatementFileDocument,
      { id: params.id, format: query.format ?? 'pdf' },
      { acting: scope.acting },
    );
    ctx.header('content-type', file.contentType);
    ctx.header('content-disposition', `attachment; filename="${file.filename}"`);
    ctx.header('cache-control', 'private, no-store');
    return Buffer.from(file.contentBase64, 'base64') as unknown as string;
  },
});
