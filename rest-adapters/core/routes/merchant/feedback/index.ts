import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { SubmitFeedbackDocument } from '@rest-adapters/generated/operations';
import { FeedbackBody, FeedbackResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/** core-api.md §2/§4: feedback from the app, kept with the merchant the user acts for (null without one). */
export default defineRoute({
  method: 'POST',
  url: '/merchant/feedback',
  summary: 'Send feedback',
  tags: ['core: merchant'],
  schema: { body: FeedbackBody, response: { 200: FeedbackResponse, ...errorResponses(400, 401) } },
  operationId: 'SubmitFeedback',
  examples: {
    body: {
      category_code: 'qris_payment',
      category_label: 'Pembayaran QRIS',
      rating: 4,
      message: 'Notifikasi pembayaran kadang terlambat beberapa detik di jam ramai.',
      contact_phone: DEMO.owner.phone,
      allow_follow_up: true,
    },
    responses: {
      200: {
        status: 'submitted',
        feedback: {
          id: '019abc4e-5e31-7c08-9a7d-2f4b6c8e0a15',
          merchant_id: DEMO.merchantId,
          category_code: 'qris_payment',
          category_label: 'Pembayaran QRIS',
          rating: 4,
          message: 'Notifikasi pembayaran kadang terlambat beberapa detik di jam ramai.',
          allow_follow_up: true,
          source: 'mobile_app',
          created_at: '2026-11-25T14:03:12.000+08:00',
        },
      },
    },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute }) => {
    const { submitFeedback: f } = await execute(SubmitFeedbackDocument, {
      input: {
        categoryCode: body.category_code,
        categoryLabel: body.category_label,
        rating: body.rating ?? null,
        message: body.message ?? null,
        contactPhone: body.contact_phone ?? null,
        allowFollowUp: body.allow_follow_up ?? false,
      },
    });
    return {
      status: 'submitted' as const,
      feedback: {
        id: f.id,
        merchant_id: f.merchantId,
        category_code: f.categoryCode,
        category_label: f.categoryLabel,
        rating: f.rating,
        message: f.message,
        allow_follow_up: f.allowFollowUp,
        source: f.source as 'mobile_app',
        created_at: f.createdAt,
      },
    };
  },
});
