import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { ProfileBody, toProfileBody } from '@rest-adapters/core/routes/shared/user-profile';
import { ViewerProfileDocument } from '@rest-adapters/generated/operations';
import { DEMO_PROFILE } from '@rest-adapters/core/examples';

/** core-api.md §4: the calling user and the merchant it has or is registering. */
export default defineRoute({
  method: 'GET',
  url: '/auth/profile',
  summary: 'The user’s profile with the merchant snapshot',
  tags: ['core: auth'],
  schema: { response: { 200: ProfileBody, ...errorResponses(401) } },
  operationId: 'ViewerProfile',
  examples: { responses: { 200: DEMO_PROFILE } },
  authenticate: userAuth,
  run: async (_input, { execute }) => {
    const data = await execute(ViewerProfileDocument, {});
    return toProfileBody(data.viewerProfile);
  },
});
