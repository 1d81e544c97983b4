import { Type } from '@sinclair/typebox';

export const VerifyQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 64 })),
  'hub.verify_token': Type.Optional(Type.String({ maxLength: 512 })),
  'hub.challenge': Type.Optional(Type.String({ maxLength: 512 })),
});

export const ChallengeResponse = Type.String({ description: 'The raw hub.challenge, as text/plain.' });
