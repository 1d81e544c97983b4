import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

const S = Nullable(Type.String());

export const PaymentTerminalResponse = Type.Object(
  {
    merchant_id: Nullable(Type.String({ format: 'uuid' })),
    merchant_name: S,
    merchant_status: S,
    terminal: Nullable(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          terminal_code: S,
          brand_name: S,
          product_model_name: S,
          device_type_name: S,
          firmware_version: S,
          device_id: Type.String({ description: 'The device serial number, else the terminal id.' }),
          nmid: S,
          placement_name: S,
          status: Type.String({ description: 'online, offline or inactive.' }),
          last_seen_at: Nullable(Type.String({ format: 'date-time', description: '+08:00.' })),
        },
        { additionalProperties: false },
      ),
    ),
    psp_pairings: Type.Array(
      Type.Object(
        {
          psp_code: Type.String(),
          psp_name: Type.String(),
          kode_kartu: S,
          nama_kartu: S,
          psp_mid: S,
          psp_tid: S,
          pairing_status: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    activity_logs: Type.Array(
      Type.Object(
        {
          event_type: Type.String(),
          event_title: Type.String(),
          severity: Type.String(),
          occurred_at: Type.String({ format: 'date-time', description: '+08:00.' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);
