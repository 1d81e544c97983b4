import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { RegistrationDecisionBody } from '@rest-adapters/core/routes/shared/internal-decision';
import { RequestDecisionResponse, toRequestDecision } from '@rest-adapters/core/routes/shared/user-profile';
import { ReviewMerchantRegistrationDocument } from '@rest-adapters/generated/operations';
import { OPERATOR_USER_ID, REGISTRATION_MERCHANT, REGISTRATION_PROFILE } from '@rest-adapters/core/examples';

/** core-api.md §3/§4: pending → pending_review, notes recorded (again on a request already under review). */
export default defineRoute({
  method: 'POST',
  url: '/internal/merchant/registration/review',
  summary: 'Put a merchant registration under review',
  tags: ['core: internal'],
  schema: { body: RegistrationDecisionBody, response: { 200: RequestDecisionResponse, ...errorResponses(400, 401, 404) } },
  operationId: 'ReviewMerchantRegistration',
  examples: {
    body: {
      request_id: REGISTRATION_MERCHANT.id,
      review_notes: 'KTP dan foto usaha sesuai; menunggu verifikasi alamat.',
      reviewed_by_user_id: OPERATOR_USER_ID,
    },
    responses: {
      200: {
        status: 'pending_review',
        request: { id: REGISTRATION_MERCHANT.id, merchant_status: 'pending_review' },
        profile: { ...REGISTRATION_PROFILE, merchant_status: 'pending_review', merchant_reviewed_at: '2026-11-25T15:20:00.000+08:00' },
      },
    },
  },
  authenticate: internalAuth,
  run: async ({ body }, { execute }) => {
    const data = await execute(ReviewMerchantRegistrationDocument, {
      input: {
        requestId: body.request_id ?? null,
        phone: body.phone ?? null,
        reviewNotes: body.review_notes ?? null,
        reviewedByUserId: body.reviewed_by_user_id ?? null,
      },
    });
    return toRequestDecision(data.reviewMerchantRegistration);
  },
});
