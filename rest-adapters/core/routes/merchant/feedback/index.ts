import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { MAKASSAR } from '@rest-adapters/core/routes/shared/user-profile';
import { FeedbackBody, FeedbackResponse } from './schema';

interface Data {
  submitFeedback: {
    id: string;
    merchantId: string | null;
    categoryCode: string;
    categoryLabel: string;
    rating: number | null;
    message: string | null;
    allowFollowUp: boolean;
    source: 'mobile_app';
    createdAt: string;
  };
}

/** core-api.md §2/§4: feedback from the app, kept with the merchant the user acts for (null without one). */
export default defineRoute({
  method: 'POST',
  url: '/merchant/feedback',
  summary: 'Send feedback',
  tags: ['core: merchant'],
  schema: { body: FeedbackBody, response: { 200: FeedbackResponse, ...errorResponses(400, 401) } },
  operation: loadOperation(__dirname),
  authenticate: userAuth,
  variables: ({ body }) => ({
    input: {
      categoryCode: body.category_code,
      categoryLabel: body.category_label,
      rating: body.rating ?? null,
      message: body.message ?? null,
      contactPhone: body.contact_phone ?? null,
      allowFollowUp: body.allow_follow_up ?? false,
    },
  }),
  map: ({ submitFeedback: f }: Data) => ({
    status: 'submitted' as const,
    feedback: {
      id: f.id,
      merchant_id: f.merchantId,
      category_code: f.categoryCode,
      category_label: f.categoryLabel,
      rating: f.rating,
      message: f.message,
      allow_follow_up: f.allowFollowUp,
      source: f.source,
      created_at: MAKASSAR.iso(new Date(f.createdAt)),
    },
  }),
});
