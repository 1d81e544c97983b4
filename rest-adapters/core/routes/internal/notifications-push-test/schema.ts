import { Type } from '@sinclair/typebox';

const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

export const TestPushBody = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32, description: 'Indonesian number: 08…, 628… or +628….' }),
  title: Text(200),
  body: Text(1000),
  type: Type.Optional(Text(64, 'Carried in the push data (default `test`).')),
  screen: Type.Optional(Text(200, 'App screen to open, carried in the push data.')),
  reference_id: Type.Optional(Text(200)),
  merchant_id: Type.Optional(Text(64)),
});

export const TestPushResponse = Type.Object(
  {
    status: Type.Literal('queued'),
    phone: Type.String({ description: 'E.164.' }),
    sent_count: Type.Integer({ description: 'Tokens the provider accepted.' }),
    failed_count: Type.Integer(),
    invalidated_count: Type.Integer({ description: 'Tokens the provider reported unregistered (now invalidated).' }),
  },
  { additionalProperties: false },
);
