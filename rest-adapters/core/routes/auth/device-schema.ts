import { Type } from '@sinclair/typebox';
import { INDONESIAN_PHONE_FORMS } from '@lib/phone/indonesian-phone';

/** The device fields every login path accepts (core-api.md §4). */
export const DeviceFields = {
  platform_code: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', description: 'Default `mobile_app`.' }),
  ),
  device_id: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 200,
      description:
        'A random per-install id (e.g. a UUID): 16–200 visible ASCII characters, surrounding spaces trimmed. A verified device becomes trusted for the user; only its hash is stored.',
    }),
  ),
  device_name: Type.Optional(Type.String({ maxLength: 200 })),
};

export const PhoneField = Type.String({
  minLength: 1,
  maxLength: 32,
  description: INDONESIAN_PHONE_FORMS,
});

export function deviceVariables(body: { platform_code?: string; device_id?: string; device_name?: string }) {
  return { platformCode: body.platform_code ?? null, deviceId: body.device_id ?? null, deviceName: body.device_name ?? null };
}
