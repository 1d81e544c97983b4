import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { sessionBody } from '@rest-adapters/core/auth/session';
import { CoreResolvePhoneDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { ResolvePhoneBody, ResolvePhoneResponse } from './schema';

/** core-api.md §4: a trusted device of an existing user gets a session (status authenticated); anyone else verifies. */
export default defineRoute({
  method: 'POST',
  url: '/auth/resolve-phone',
  summary: 'Resolve a phone: session on a trusted device, else verification required',
  tags: ['core: auth'],
  schema: { body: ResolvePhoneBody, response: { 200: ResolvePhoneResponse, ...errorResponses(400, 429) } },
  operationId: 'CoreResolvePhone',
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { resolvePhone: r } = await execute(CoreResolvePhoneDocument, { input: { phone: body.phone, ...deviceVariables(body) } });
    if (r.status === 'authenticated' && r.session) return sessionBody(r.session, 'authenticated', config);
    return { status: 'verification_required', phone: r.phone, reason: r.reason!, verification_channel: r.verificationChannel! };
  },
});
