import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { ProfileBody, toProfileBody } from '@rest-adapters/core/routes/shared/user-profile';
import { UpdateViewerProfileDocument } from '@rest-adapters/generated/operations';
import { UpdateProfileBody } from './schema';
import { DEMO_PROFILE } from '@rest-adapters/core/examples';

const PROFILE_FIELDS = ['full_name', 'nik', 'gender', 'address_line', 'avatar_url', 'email'] as const;

/** core-api.md §4: the user changes its own fields (nik 16 digits, gender male|female, avatar https, email unverified after a change). */
export default defineRoute({
  method: 'PUT',
  url: '/auth/profile',
  summary: 'Change the user’s profile',
  tags: ['core: auth'],
  schema: { body: UpdateProfileBody, response: { 200: ProfileBody, ...errorResponses(400, 401) } },
  operationId: 'UpdateViewerProfile',
  examples: {
    body: { full_name: DEMO_PROFILE.full_name, address_line: DEMO_PROFILE.address_line, email: DEMO_PROFILE.email },
    responses: { 200: DEMO_PROFILE },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute }) => {
    // Unknown fields are ignored: a body without any known field is a mistake, not a no-op.
    if (PROFILE_FIELDS.every((field) => body[field] === undefined))
      throw new HttpError(400, 'bad_request', 'invalid body: at least one profile field is required');
    const data = await execute(UpdateViewerProfileDocument, {
      input: {
        fullName: body.full_name ?? null,
        nik: body.nik ?? null,
        gender: body.gender ?? null,
        addressLine: body.address_line ?? null,
        avatarUrl: body.avatar_url ?? null,
        email: body.email ?? null,
      },
    });
    return toProfileBody(data.updateViewerProfile);
  },
});
