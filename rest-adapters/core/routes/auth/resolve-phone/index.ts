import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { type SessionGrant, sessionBody } from '@rest-adapters/core/auth/session';
import { deviceVariables } from '../device-schema';
import { ResolvePhoneBody, ResolvePhoneResponse } from './schema';

const operation = loadOperation(__dirname);

interface Data {
  resolvePhone: {
    status: 'authenticated' | 'verification_required';
    phone: string;
    reason: 'new_user' | 'new_device' | null;
    verificationChannel: 'messaging' | null;
    session: SessionGrant | null;
  };
}

/** core-api.md §4: a trusted device of an existing user gets a session (status authenticated); anyone else verifies. */
export default defineRoute({
  method: 'POST',
  url: '/auth/resolve-phone',
  summary: 'Resolve a phone: session on a trusted device, else verification required',
  tags: ['core: auth'],
  schema: { body: ResolvePhoneBody, response: { 200: ResolvePhoneResponse, ...errorResponses(400, 429) } },
  operation,
  rateLimit: { max: 30, windowSecs: 60 },
  handle: async ({ body }, runtime) => {
    const { resolvePhone: r } = await runtime.run<Data>(operation, { input: { phone: body.phone, ...deviceVariables(body) } });
    if (r.status === 'authenticated' && r.session) return sessionBody(r.session, 'authenticated', runtime.config);
    return { status: 'verification_required', phone: r.phone, reason: r.reason!, verification_channel: r.verificationChannel! };
  },
});
