import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosOutlet, type PosOutletData, toPosOutlet } from '../pos-outlet';

const Body = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  address_line: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  city: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  province: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
});

export default posRoutes({
  method: 'POST',
  path: '/catalog/outlets',
  summary: 'Create an outlet (409 code_conflict when the merchant has a live outlet with the code)',
  schema: { body: Body, response: { 201: PosOutlet, ...errorResponses(400, 401, 403, 409, 429) } },
  operation: loadOperation(__dirname),
  status: 201,
  variables: ({ body }) => ({
    input: {
      code: body.code,
      name: body.name,
      addressLine: body.address_line,
      city: body.city,
      province: body.province,
      phone: body.phone,
    },
  }),
  map: (data: { createPosOutlet: PosOutletData }) => toPosOutlet(data.createPosOutlet),
});
