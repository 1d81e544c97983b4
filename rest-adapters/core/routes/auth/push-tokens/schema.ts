import { Type } from '@sinclair/typebox';

export const PushTokenBody = Type.Object({
  push_token: Type.String({ minLength: 1, maxLength: 4096, description: 'The push provider’s registration token of this device.' }),
  device_id: Type.String({ minLength: 16, maxLength: 200, description: 'The app’s random per-install id.' }),
  device_name: Type.Optional(Type.String({ maxLength: 200 })),
});

export const PushTokenResponse = Type.Object({ status: Type.Literal('registered') }, { additionalProperties: false });
