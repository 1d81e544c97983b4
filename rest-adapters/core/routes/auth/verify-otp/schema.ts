import { Type } from '@sinclair/typebox';
import { DeviceFields, PhoneField } from '../device-schema';

export const VerifyOtpBody = Type.Object({
  request_id: Type.String({ format: 'uuid' }),
  phone: PhoneField,
  code: Type.String({ pattern: '^[0-9]{6}$', description: 'The six digits received.' }),
  ...DeviceFields,
});
