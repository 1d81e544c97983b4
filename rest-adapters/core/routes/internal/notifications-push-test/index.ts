import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreInternalSendTestPushDocument } from '@rest-adapters/generated/operations';
import { TestPushBody, TestPushResponse } from './schema';

/** core-api.md §4 internal: a push to every live token of a phone's user (0 sent when it has none). */
export default defineRoute({
  method: 'POST',
  url: '/internal/notifications/push/test',
  summary: 'Send a push to all devices of a phone',
  tags: ['core: internal'],
  schema: { body: TestPushBody, response: { 200: TestPushResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreInternalSendTestPush',
  authenticate: internalAuth,
  run: async ({ body }, { execute }) => {
    const { sendTestPush: r } = await execute(CoreInternalSendTestPushDocument, {
      input: {
        phone: body.phone,
        title: body.title,
        body: body.body,
        type: body.type ?? null,
        screen: body.screen ?? null,
        referenceId: body.reference_id ?? null,
        merchantId: body.merchant_id ?? null,
      },
    });
    return {
      status: r.status as 'queued',
      phone: r.phone,
      sent_count: r.sentCount,
      failed_count: r.failedCount,
      invalidated_count: r.invalidatedCount,
    };
  },
});
