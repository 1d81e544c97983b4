import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { eitherContract } from '@rest-adapters/partner/routes/partner-data';

/** A device (terminal) of an outlet: acquirer TID and hardware serial, never the raw device id. */
export const PartnerDevice = Type.Object(
  {
    tid: Nullable(Type.String({ description: 'Terminal ID assigned by the acquirer.' })),
    serial_number: Nullable(Type.String()),
    model: Nullable(Type.String()),
    firmware_version: Nullable(Type.String()),
    status: Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('inactive')]),
    last_seen_at: Nullable(Type.String({ format: 'date-time', description: 'Contract A: +07:00; B: UTC.' })),
  },
  { additionalProperties: false, title: 'PartnerDevice' },
);

const Ids = { merchant_id: Type.String({ format: 'uuid' }), outlet_id: Type.String({ format: 'uuid' }) };
export const DevicesA = Type.Object(
  { ...Ids, items: Type.Array(PartnerDevice) },
  { additionalProperties: false, title: 'PartnerDevicesA' },
);
export const DevicesB = Type.Object(
  { ...Ids, items: Type.Array(PartnerDevice), count: Type.Integer() },
  { additionalProperties: false, title: 'PartnerDevicesB' },
);
export type DevicesA = Static<typeof DevicesA>;
export type DevicesB = Static<typeof DevicesB>;
export const DevicesResponse = eitherContract<DevicesA, DevicesB>(DevicesA, DevicesB);
