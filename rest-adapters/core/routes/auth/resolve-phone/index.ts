import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { sessionBody } from '@rest-adapters/core/auth/session';
import { CoreResolvePhoneDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { ResolvePhoneBody, ResolvePhoneResponse } from './schema';
import { DEMO_DEVICE, DEMO_PHONE, DEMO_SESSION } from '@rest-adapters/core/examples';

/** core-api.md §4: a trusted device of an existing user gets a session (status authenticated); anyone else verifies. */
export default defineRoute({
  method: 'POST',
  url: '/auth/resolve-phone',
  summary: 'Resolve a phone: session on a trusted device, else verification required',
  description: [
    'The first step of the phone login; it never creates an account or sends a code.',
    '',
    '- A phone with an account and a `device_id` trusted for that user (a device that verified before and whose login was not cancelled): a session, `status: authenticated`.',
    '- Otherwise `status: verification_required` with `verification_channel: messaging` (send the code with `POST /auth/request-otp`) and a `reason`: `new_user` when no account has the phone, `new_device` when one has but `device_id` is missing or not trusted for it.',
    '- 400 `bad_request`: a phone that is not Indonesian or malformed device fields. 429 `rate_limit_exceeded`: more than 30 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { body: ResolvePhoneBody, response: { 200: ResolvePhoneResponse, ...errorResponses(400, 429) } },
  operationId: 'CoreResolvePhone',
  examples: {
    body: { phone: DEMO_PHONE.typed, ...DEMO_DEVICE },
    namedResponses: {
      200: {
        trusted_device: { summary: 'A trusted device of a known user: a session', value: { ...DEMO_SESSION, status: 'authenticated' } },
        verification_required: {
          summary: 'A new user or a new device: verify the phone first',
          value: { status: 'verification_required', phone: DEMO_PHONE.e164, reason: 'new_device', verification_channel: 'messaging' },
        },
      },
    },
  },
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { resolvePhone: r } = await execute(CoreResolvePhoneDocument, { input: { phone: body.phone, ...deviceVariables(body) } });
    if (r.status === 'authenticated' && r.session) return sessionBody(r.session, 'authenticated', config);
    return { status: 'verification_required', phone: r.phone, reason: r.reason!, verification_channel: r.verificationChannel! };
  },
});
