import { Type } from '@sinclair/typebox';
import { DeviceFields } from '../device-schema';

export const ExternalVerifyBody = Type.Object({
  id_token: Type.String({
    minLength: 1,
    maxLength: 8192,
    description: 'The identity provider’s ID token (RS256 JWT) carrying the verified phone.',
  }),
  request_id: Type.Optional(Type.String({ maxLength: 100 })),
  ...DeviceFields,
  flow_mode: Type.Optional(
    Type.Union([Type.Literal('registration'), Type.Literal('login_primary'), Type.Literal('login_fallback')], {
      description: 'Audit only.',
    }),
  ),
  fallback_reason: Type.Optional(
    Type.Union([Type.Literal('messaging_unavailable'), Type.Literal('email_unavailable'), Type.Literal('user_switched')], {
      description: 'Audit only.',
    }),
  ),
  hint_phone: Type.Optional(Type.String({ maxLength: 32, description: 'Best effort, audit only.' })),
});
