import { Type } from '@sinclair/typebox';

/** The device fields every login path accepts (core-api.md §4). */
export const DeviceFields = {
  platform_code: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', description: 'Default `mobile_app`.' }),
  ),
  device_id: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 200,
      description: 'A random per-install id (e.g. a UUID); a verified device becomes trusted for the user.',
    }),
  ),
  device_name: Type.Optional(Type.String({ maxLength: 200 })),
};

export const PhoneField = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Indonesian number: 08…, 628… or +628… (stored E.164).',
});

export function deviceVariables(body: { platform_code?: string; device_id?: string; device_name?: string }) {
  return { platformCode: body.platform_code ?? null, deviceId: body.device_id ?? null, deviceName: body.device_name ?? null };
}
