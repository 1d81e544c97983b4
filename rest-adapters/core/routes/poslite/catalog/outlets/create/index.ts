import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CreatePosOutletDocument } from '@rest-adapters/generated/operations';
import { PosOutlet, toPosOutlet } from '../pos-outlet';
import { DEMO_POS_OUTLET } from '@rest-adapters/core/examples';

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
  description: ['409 `code_conflict` when a live outlet of the merchant has the `code`; a deleted outlet frees its code.'].join('\n'),
  schema: { body: Body, response: { 201: PosOutlet, ...errorResponses(400, 401, 403, 409, 429) } },
  operationId: 'CreatePosOutlet',
  examples: {
    body: {
      code: 'KEMANG',
      name: 'Warung Kopi Demo – Kemang',
      address_line: 'Jl. Kemang Raya No. 8',
      city: 'Jakarta Selatan',
      province: 'DKI Jakarta',
      phone: '+622171790003',
    },
    responses: {
      201: {
        ...DEMO_POS_OUTLET,
        id: '019abc4e-4b50-7d61-a2c7-9e0f3b5d7a38',
        code: 'KEMANG',
        name: 'Warung Kopi Demo – Kemang',
        address_line: 'Jl. Kemang Raya No. 8',
        city: 'Jakarta Selatan',
        phone: '+622171790003',
        nmid: null,
        qris_static_payload: null,
        created_at: '2026-11-25T03:10:00.000Z',
        updated_at: '2026-11-25T03:10:00.000Z',
      },
    },
  },
  status: 201,
  run: async ({ body }, { execute }) => {
    const data = await execute(CreatePosOutletDocument, {
      input: {
        code: body.code,
        name: body.name,
        addressLine: body.address_line,
        city: body.city,
        province: body.province,
        phone: body.phone,
      },
    });
    return toPosOutlet(data.createPosOutlet);
  },
});
