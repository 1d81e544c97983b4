import { Type } from '@sinclair/typebox';

export const SendOtpBody = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32, description: 'Indonesian number: 08…, 628… or +628….' }),
  code: Type.String({ pattern: '^[0-9]{4,8}$', description: 'The code to deliver (4–8 digits).' }),
});

export const QueuedResponse = Type.Object({ status: Type.Literal('queued') }, { additionalProperties: false });
