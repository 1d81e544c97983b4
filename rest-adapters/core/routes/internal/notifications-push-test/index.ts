import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { TestPushBody, TestPushResponse } from './schema';

interface Data {
  sendTestPush: { status: 'queued'; phone: string; sentCount: number; failedCount: number; invalidatedCount: number };
}

/** core-api.md §4 internal: a push to every live token of a phone's user (0 sent when it has none). */
export default defineRoute({
  method: 'POST',
  url: '/internal/notifications/push/test',
  summary: 'Send a push to all devices of a phone',
  tags: ['core: internal'],
  schema: { body: TestPushBody, response: { 200: TestPushResponse, ...errorResponses(400, 401) } },
  operation: loadOperation(__dirname),
  authenticate: internalAuth,
  variables: ({ body }) => ({
    input: {
      phone: body.phone,
      title: body.title,
      body: body.body,
      type: body.type ?? null,
      screen: body.screen ?? null,
      referenceId: body.reference_id ?? null,
      merchantId: body.merchant_id ?? null,
    },
  }),
  map: ({ sendTestPush: r }: Data) => ({
    status: r.status,
    phone: r.phone,
    sent_count: r.sentCount,
    failed_count: r.failedCount,
    invalidated_count: r.invalidatedCount,
  }),
});
