import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreRegisterPushTokenDocument } from '@rest-adapters/generated/operations';
import { PushTokenBody, PushTokenResponse } from './schema';
import { DEMO_DEVICE } from '@rest-adapters/core/examples';

/** core-api.md §4: the device's push token (a token moves to the device that registers it last). */
export default defineRoute({
  method: 'POST',
  url: '/auth/push-tokens',
  summary: 'Register the push token of a device',
  tags: ['core: auth'],
  schema: { body: PushTokenBody, response: { 200: PushTokenResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreRegisterPushToken',
  examples: {
    body: {
      push_token: 'fcm:dQw4w9WgXcQ:APA91bH7k2mX9vQ4tR8sY1zB6nC3dF5gH0jL2pK7wE4uI9oA1',
      device_id: DEMO_DEVICE.device_id,
      device_name: DEMO_DEVICE.device_name,
    },
    responses: { 200: { status: 'registered' } },
  },
  authenticate: userAuth,
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute }) => {
    await execute(CoreRegisterPushTokenDocument, {
      input: { pushToken: body.push_token, deviceId: body.device_id, deviceName: body.device_name ?? null },
    });
    return { status: 'registered' as const };
  },
});
