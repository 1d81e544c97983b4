import { Type } from '@sinclair/typebox';

export const CancelQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The link token of the login_alert push.' }),
});

export const CancelledResponse = Type.Object(
  { status: Type.Literal('cancelled'), message: Type.String() },
  { additionalProperties: false },
);
