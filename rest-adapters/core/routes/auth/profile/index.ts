import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { ProfileBody, type UserProfileData, toProfileBody } from '@rest-adapters/core/routes/shared/user-profile';

/** core-api.md §4: the calling user and the merchant it has or is registering. */
export default defineRoute({
  method: 'GET',
  url: '/auth/profile',
  summary: 'The user’s profile with the merchant snapshot',
  tags: ['core: auth'],
  schema: { response: { 200: ProfileBody, ...errorResponses(401) } },
  operation: loadOperation(__dirname),
  authenticate: userAuth,
  map: (data: { viewerProfile: UserProfileData }) => toProfileBody(data.viewerProfile),
});
