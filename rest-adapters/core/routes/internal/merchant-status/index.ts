import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { MerchantStatusBody } from '@rest-adapters/core/routes/shared/internal-decision';
import { MerchantDecisionResponse, toMerchantDecision } from '@rest-adapters/core/routes/shared/user-profile';
import { ReviewMerchantStatusDocument } from '@rest-adapters/generated/operations';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { DEMO_PROFILE, OPERATOR_USER_ID } from '@rest-adapters/core/examples';

/**
 * core-api.md §3: active → suspended | deleted, suspended → active | deleted, through the merchant lifecycle
 * service (which queues the bank's webhook in the same transaction). Anything else is 409 `invalid_transition`; a
 * reactivation of a merchant whose KYC has expired is 409 `kyc_expired` (renewed by an operator instead:
 * docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
 */
export default defineRoute({
  method: 'POST',
  url: '/internal/merchant/status',
  summary: 'Change a merchant’s status',
  tags: ['core: internal'],
  errors: { 409: ['invalid_transition', 'kyc_expired'] },
  schema: { body: MerchantStatusBody, response: { 200: MerchantDecisionResponse, ...errorResponses(400, 401, 404, 409) } },
  operationId: 'ReviewMerchantStatus',
  examples: {
    body: {
      merchant_id: DEMO.merchantId,
      target_status: 'suspended',
      reason: 'kyc_expired',
      review_notes: 'KTP pemilik kedaluwarsa; diminta unggah ulang.',
      reviewed_by_user_id: OPERATOR_USER_ID,
    },
    responses: {
      200: {
        status: 'suspended',
        merchant: { id: DEMO.merchantId, merchant_status: 'suspended' },
        profile: { ...DEMO_PROFILE, merchant_status: 'suspended', merchant_reviewed_at: '2026-11-25T16:00:00.000+08:00' },
      },
    },
    errors: {
      invalid_transition: 'cannot move a merchant from deleted to active',
      kyc_expired: "the merchant's KYC expired at 2026-11-01T00:00:00.000Z: renew it first",
    },
  },
  authenticate: internalAuth,
  run: async ({ body }, { execute }) => {
    const data = await execute(ReviewMerchantStatusDocument, {
      input: {
        merchantId: body.merchant_id ?? null,
        phone: body.phone ?? null,
        targetStatus: body.target_status,
        reason: body.reason ?? null,
        reviewNotes: body.review_notes ?? null,
        reviewedByUserId: body.reviewed_by_user_id ?? null,
      },
    });
    return toMerchantDecision(data.reviewMerchantStatus);
  },
});
