import { timingSafeEqual } from 'node:crypto';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ChallengeResponse, VerifyQuery } from './schema';

/**
 * The messaging provider's subscription check (WhatsApp Cloud API-like): `hub.mode=subscribe` and
 * `hub.verify_token` equal to MESSAGING_WEBHOOK_VERIFY_TOKEN → 200 with the raw `hub.challenge` as text/plain;
 * anything else 403. No GraphQL: it only compares a configured token.
 */
export default defineRoute({
  method: 'GET',
  url: '/webhooks/messaging/status',
  summary: 'Messaging webhook subscription check',
  description: [
    'The messaging provider’s subscription check (WhatsApp Cloud API-like).',
    '',
    '- 200 with the raw `hub.challenge` as `text/plain` when `hub.mode` is `subscribe` and `hub.verify_token` equals the configured `MESSAGING_WEBHOOK_VERIFY_TOKEN` (compared in constant time).',
    '- 403 `forbidden` for anything else (wrong mode or token, no challenge).',
    '- 503 `webhook_not_configured` while `MESSAGING_WEBHOOK_VERIFY_TOKEN` is unset: there is no default token.',
  ].join('\n'),
  tags: ['core: webhooks'],
  schema: { querystring: VerifyQuery, response: { 200: ChallengeResponse, ...errorResponses(403) } },
  operationId: 'CoreMessagingWebhookVerify',
  examples: {
    query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'demo-verify-token', 'hub.challenge': '1158201444' },
    responses: { 200: '1158201444' },
  },
  run: async ({ query }, { config, header }) => {
    const expected = config.messagingWebhook.verifyToken;
    if (!expected) throw new HttpError(503, 'webhook_not_configured', 'the messaging webhook is not configured');
    const given = Buffer.from(query['hub.verify_token'] ?? '');
    const matches = given.length === Buffer.byteLength(expected) && timingSafeEqual(given, Buffer.from(expected));
    if (query['hub.mode'] !== 'subscribe' || !matches || query['hub.challenge'] === undefined) {
      throw new HttpError(403, 'forbidden', 'subscription check failed');
    }
    header('content-type', 'text/plain; charset=utf-8');
    return query['hub.challenge'];
  },
});
