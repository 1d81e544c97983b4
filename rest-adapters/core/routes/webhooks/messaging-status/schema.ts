import { Type } from '@sinclair/typebox';

const Status = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  status: Type.String({ maxLength: 32, description: 'sent, delivered, read or failed (others ignored).' }),
  timestamp: Type.Optional(Type.String({ maxLength: 20, description: 'Unix seconds.' })),
});

/** WhatsApp Cloud API-like callback: statuses under entry[].changes[].value; anything else in it is ignored. */
export const StatusCallback = Type.Object({
  object: Type.Optional(Type.String()),
  entry: Type.Array(
    Type.Object({
      changes: Type.Optional(
        Type.Array(Type.Object({ value: Type.Optional(Type.Object({ statuses: Type.Optional(Type.Array(Status, { maxItems: 1000 })) })) })),
      ),
    }),
    { maxItems: 100 },
  ),
});

export const StatusCallbackResponse = Type.Object(
  { status: Type.Literal('ok'), updated: Type.Integer({ description: 'Messages whose status changed.' }) },
  { additionalProperties: false },
);
