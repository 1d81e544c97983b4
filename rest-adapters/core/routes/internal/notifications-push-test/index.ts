import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreInternalSendTestPushDocument } from '@rest-adapters/generated/operations';
import { TestPushBody, TestPushResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { DEMO_PHONE } from '@rest-adapters/core/examples';

/** core-api.md §4 internal: a push to every live token of a phone's user (0 sent when it has none). */
export default defineRoute({
  method: 'POST',
  url: '/internal/notifications/push/test',
  summary: 'Send a push to all devices of a phone',
  tags: ['core: internal'],
  schema: { body: TestPushBody, response: { 200: TestPushResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreInternalSendTestPush',
  examples: {
    body: {
      phone: DEMO_PHONE.typed,
      title: 'Pembayaran diterima',
      body: 'Rp25.000 dari QRIS di Warung Kopi Demo – Pusat',
      type: 'test',
      screen: 'transactions',
      reference_id: 'TRX-20261125-000123',
      merchant_id: DEMO.merchantId,
    },
    responses: { 200: { status: 'queued', phone: DEMO_PHONE.e164, sent_count: 1, failed_count: 0, invalidated_count: 0 } },
  },
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
