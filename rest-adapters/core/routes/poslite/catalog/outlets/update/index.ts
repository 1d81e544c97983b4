import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { UpdatePosOutletDocument } from '@rest-adapters/generated/operations';
import { IdParams, PosOutlet, toPosOutlet } from '../pos-outlet';
import { DEMO_POS_OUTLET } from '@rest-adapters/core/examples';

const Body = Type.Object({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  address_line: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  city: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  province: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  is_active: Type.Optional(Nullable(Type.Boolean())),
  nmid: Type.Optional(Nullable(Type.String({ pattern: '^ID[0-9]{10,15}$', description: 'Correction only.' }))),
  qris_static_payload: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'Correction only; "" clears it.' }))),
});

export default posRoutes({
  method: 'PATCH',
  path: '/catalog/outlets/:id',
  summary: 'Change an outlet (absent or null fields stay; nmid 409 nmid_taken when another outlet has it)',
  description: [
    '409 `nmid_taken` when another outlet has the `nmid`: NMIDs are unique over all outlets of all merchants, deleted ones included.',
  ].join('\n'),
  schema: { params: IdParams, body: Body, response: { 200: PosOutlet, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'UpdatePosOutlet',
  examples: {
    params: { id: DEMO_POS_OUTLET.id },
    body: { address_line: 'Jl. Kebon Sirih No. 10A', phone: '+622131900011' },
    responses: {
      200: { ...DEMO_POS_OUTLET, address_line: 'Jl. Kebon Sirih No. 10A', phone: '+622131900011', updated_at: '2026-11-25T03:12:00.000Z' },
    },
  },
  run: async ({ params, body }, { execute }) => {
    const data = await execute(UpdatePosOutletDocument, {
      id: params.id,
      input: {
        name: body.name,
        addressLine: body.address_line,
        city: body.city,
        province: body.province,
        phone: body.phone,
        isActive: body.is_active,
        nmid: body.nmid,
        qrisStaticPayload: body.qris_static_payload,
      },
    });
    return toPosOutlet(data.updatePosOutlet);
  },
});
