import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreInternalSendOtpDocument } from '@rest-adapters/generated/operations';
import { QueuedResponse, SendOtpBody } from './schema';
import { DEMO_PHONE } from '@rest-adapters/core/examples';

/** core-api.md §4 internal: a code delivered through the messaging provider (template `otp`). */
export default defineRoute({
  method: 'POST',
  url: '/internal/notifications/messaging/otp',
  summary: 'Send a one-time password by messaging',
  description: '503 `messaging_unavailable` when the provider does not take the message.',
  tags: ['core: internal'],
  schema: { body: SendOtpBody, response: { 200: QueuedResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreInternalSendOtp',
  examples: {
    body: { phone: DEMO_PHONE.typed, code: '482913' },
    responses: { 200: { status: 'queued' } },
  },
  authenticate: internalAuth,
  run: async ({ body }, { execute }) => {
    await execute(CoreInternalSendOtpDocument, { phone: body.phone, code: body.code });
    return { status: 'queued' as const };
  },
});
