import { ForbiddenError } from '@lib/errors/app-error';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import { defineRoute } from '@lib/rest/route';
import { PspAssignNmidDocument, PspAssignmentMerchantDocument, PspRecordNmidAssignmentDocument } from '@rest-adapters/generated/operations';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { AssignmentParams, AssignmentRequest, AssignmentResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

const lookupSignature = bankSignature('lookup');

/**
 * Three operations. First the merchant must be the tier-1 PSP's own (else 404) and not deleted, so that nothing
 * is half-assigned; then the NMID is the outlet subgraph's (format, uniqueness → 409); then the merchant
 * subgraph records it, which may complete the first activation (and emit merchant.activated). The last two are
 * idempotent, so a retry after a failure between them completes the assignment.
 */
export default defineRoute({
  method: 'PATCH',
  url: '/api/psp/v1/merchants/:id/nmid-assignment',
  summary: 'Assign an NMID to a merchant’s outlet (tier-1 PSP only)',
  tags: ['psp: lookups'],
  schema: {
    params: AssignmentParams,
    body: AssignmentRequest,
    response: { 200: AssignmentResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
  },
  operationId: 'PspAssignNmid',
  examples: {
    params: { id: DEMO.otherMerchants[0].id },
    body: { nmid: 'ID1026112200007', outlet_id: DEMO.otherMerchants[0].outlets[0].id, mid: 'MID0000007' },
    responses: {
      200: {
        merchant_id: DEMO.otherMerchants[0].id,
        outlet_id: DEMO.otherMerchants[0].outlets[0].id,
        nmid: 'ID1026112200007',
        mid: 'MID0000007',
        bank_code: DEMO.bank.code,
        nmid_status: 'active',
        merchant_status: 'active',
      },
    },
    errors: { nmid_taken: 'nmid ID1026112200007 belongs to another merchant', merchant_deleted: 'the merchant is deleted' },
  },
  errors: { 409: ['nmid_taken', 'merchant_deleted'] },
  authenticate: authenticatedBy('bankLookup', async (req, runtime) => {
    const principal = await lookupSignature(req, runtime);
    if (principal.kind === 'bank' && principal.tier !== 1) throw new HttpError(403, 'forbidden', 'only the tier-1 PSP may assign NMIDs');
    return principal;
  }),
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ params, body }, { execute, principal }) => {
    if (principal?.kind !== 'bank') throw new ForbiddenError();
    const { merchant: owned } = await execute(PspAssignmentMerchantDocument, { id: params.id });
    if (!owned) throw new HttpError(404, 'not_found', 'merchant not found');
    if (owned.status === 'deleted') throw new HttpError(409, 'merchant_deleted', 'the merchant is deleted');
    const { assignNmid: outlet } = await execute(PspAssignNmidDocument, {
      input: {
        merchantId: params.id,
        outletId: body.outlet_id ?? null,
        nmid: body.nmid,
        bankCode: principal.bankCode,
        mid: body.mid ?? null,
      },
    });
    // The outlet's NMID fields are nullable in the schema; assignNmid has just set them.
    const { recordNmidAssignment: merchant } = await execute(PspRecordNmidAssignmentDocument, {
      merchantId: params.id,
      nmid: outlet.nmid!,
    });
    return {
      merchant_id: merchant.id,
      outlet_id: outlet.id,
      nmid: outlet.nmid!,
      mid: outlet.mid,
      bank_code: outlet.nmidBankCode!,
      nmid_status: outlet.nmidStatus,
      merchant_status: merchant.status,
    };
  },
});
