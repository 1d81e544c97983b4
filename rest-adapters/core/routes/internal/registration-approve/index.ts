import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { Nullable } from '@lib/rest/schema-helpers';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { RegistrationDecisionBody } from '@rest-adapters/core/routes/shared/internal-decision';
import { MerchantDecisionResponse, toMerchantDecision } from '@rest-adapters/core/routes/shared/user-profile';
import { ApproveMerchantRegistrationDocument, EnsureDefaultOutletDocument } from '@rest-adapters/generated/operations';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { OPERATOR_USER_ID, REGISTRATION_MERCHANT, REGISTRATION_PROFILE } from '@rest-adapters/core/examples';

const ApproveBody = Type.Composite([
  RegistrationDecisionBody,
  Type.Object({
    bank_code: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[A-Za-z0-9]{2,12}$',
          description: 'The acquiring bank; without it the merchant has none until an operator assigns one.',
        }),
      ),
    ),
  }),
]);

/**
 * core-api.md §3/§4. Two steps in two subgraphs, each idempotent, so a retry after any failure completes the
 * approval: (1) the merchant subgraph turns the request into the active merchant (same id), its user the owner,
 * and deletes the request in one transaction — a retry of an approved request answers the merchant again;
 * (2) the outlet subgraph gives the merchant its default outlet unless it has one. The bank sees the merchant
 * once it holds an NMID of that bank (assigned by the tier-1 PSP, psp-api.md NMID assignment).
 */
export default defineRoute({
  method: 'POST',
  url: '/internal/merchant/registration/approve',
  summary: 'Approve a merchant registration',
  tags: ['core: internal'],
  schema: { body: ApproveBody, response: { 200: MerchantDecisionResponse, ...errorResponses(400, 401, 404) } },
  operationId: 'ApproveMerchantRegistration',
  examples: {
    body: {
      request_id: REGISTRATION_MERCHANT.id,
      review_notes: 'Alamat terverifikasi.',
      reviewed_by_user_id: OPERATOR_USER_ID,
      bank_code: DEMO.bank.code,
    },
    responses: {
      200: {
        status: 'active',
        merchant: { id: REGISTRATION_MERCHANT.id, merchant_status: 'active' },
        profile: { ...REGISTRATION_PROFILE, merchant_status: 'active', merchant_reviewed_at: '2026-11-26T09:05:00.000+08:00' },
      },
    },
  },
  authenticate: internalAuth,
  run: async ({ body }, { execute }) => {
    const { approveMerchantRegistration: result } = await execute(ApproveMerchantRegistrationDocument, {
      input: {
        requestId: body.request_id ?? null,
        phone: body.phone ?? null,
        reviewNotes: body.review_notes ?? null,
        reviewedByUserId: body.reviewed_by_user_id ?? null,
        bankCode: body.bank_code ?? null,
      },
    });
    const m = result.profile?.merchant;
    await execute(EnsureDefaultOutletDocument, {
      input: {
        merchantId: result.id,
        name: m?.name ?? 'Outlet utama',
        addressLine: m?.addressLine ?? null,
        city: m?.cityName ?? null,
        province: m?.provinceName ?? null,
        postalCode: m?.postalCode ?? null,
        phone: m?.contactPhone ?? null,
      },
    });
    return toMerchantDecision(result);
  },
});
