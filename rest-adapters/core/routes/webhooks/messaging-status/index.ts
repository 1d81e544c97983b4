import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import { type RouteRuntime, defineRoute } from '@lib/rest/route';
import { CoreRecordMessagingStatusesDocument } from '@rest-adapters/generated/operations';
import { StatusCallback, StatusCallbackResponse } from './schema';

/**
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(raw body, MESSAGING_WEBHOOK_SECRET)>`, compared in constant
 * time over the body exactly as received; runs before body validation, so an unsigned request learns nothing.
 */
export async function messagingSignature(req: FastifyRequest, runtime: RouteRuntime): Promise<Principal> {
  const secret = runtime.config.messagingWebhook.secret;
  if (!secret) throw new HttpError(503, 'webhook_not_configured', 'the messaging webhook is not configured');
  const header = req.headers['x-hub-signature-256'];
  const match = typeof header === 'string' ? /^sha256=([0-9a-fA-F]{64})$/.exec(header) : null;
  if (!match) throw new HttpError(401, 'unauthorized', 'X-Hub-Signature-256 missing or malformed');
  const expected = createHmac('sha256', secret)
    .update(typeof req.rawBody === 'string' ? req.rawBody : '')
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(match[1], 'hex'))) throw new HttpError(401, 'unauthorized', 'signature does not match');
  return { kind: 'service', service: 'messaging-webhook' };
}

authenticatedBy('messaging', messagingSignature);

/** Delivery statuses of sent messages (core-api.md §4); unknown message ids are ignored. */
export default defineRoute({
  method: 'POST',
  url: '/webhooks/messaging/status',
  summary: 'Messaging provider delivery statuses',
  description: [
    'Delivery statuses of messages sent through the real messaging provider (WhatsApp Cloud API-like callback: `entry[].changes[].value.statuses[]`).',
    '',
    '- Signed: `X-Hub-Signature-256: sha256=<64 hex digits>`, the HMAC-SHA256 of the raw body as received under `MESSAGING_WEBHOOK_SECRET`, compared in constant time and checked before the body is validated. Missing, malformed or wrong → 401 `unauthorized`.',
    '- 503 `webhook_not_configured` while `MESSAGING_WEBHOOK_SECRET` is unset: there is no default secret.',
    '- Each status updates the message with that provider id, only forward (accepted < sent < delivered < read < failed), so a late or replayed status never moves a message back; unknown ids and unknown status words are ignored. `timestamp` (Unix seconds) is when it happened, else the time of receipt.',
    '- `updated`: how many messages changed. 600 requests per minute per client address.',
  ].join('\n'),
  tags: ['core: webhooks'],
  schema: { body: StatusCallback, response: { 200: StatusCallbackResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreRecordMessagingStatuses',
  examples: {
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          changes: [
            {
              value: {
                statuses: [
                  { id: 'wamid.HBgNNjI4MTIwMDAwMDAwMRUCABEYEjQ4QzE3RTc5RkQ2QjkyQjQ1AA==', status: 'delivered', timestamp: '1795055467' },
                  { id: 'wamid.HBgNNjI4MTIwMDAwMDAwMRUCABEYEjQ4QzE3RTc5RkQ2QjkyQjQ1AA==', status: 'read', timestamp: '1795055490' },
                ],
              },
            },
          ],
        },
      ],
    },
    responses: { 200: { status: 'ok', updated: 2 } },
  },
  authenticate: messagingSignature,
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, { execute }) => {
    const data = await execute(CoreRecordMessagingStatusesDocument, {
      statuses: body.entry.flatMap((e) =>
        (e.changes ?? []).flatMap((c) =>
          (c.value?.statuses ?? []).map((s) => ({
            id: s.id,
            status: s.status,
            timestamp: s.timestamp ?? String(Math.floor(Date.now() / 1000)),
          })),
        ),
      ),
    });
    return { status: 'ok' as const, updated: data.recordMessagingStatuses };
  },
});
