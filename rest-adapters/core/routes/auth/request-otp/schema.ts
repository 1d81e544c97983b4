import { Type } from '@sinclair/typebox';
import { DeviceFields, PhoneField } from '../device-schema';

export const RequestOtpBody = Type.Object({
  phone: PhoneField,
  method: Type.Optional(
    Type.Union([Type.Literal('messaging'), Type.Literal('whatsapp')], { description: 'Default `messaging` (WhatsApp-style).' }),
  ),
  ...DeviceFields,
});

export const OtpSentResponse = Type.Object(
  {
    status: Type.Literal('otp_sent'),
    request_id: Type.String({ format: 'uuid', description: 'Send it back to /auth/verify-otp.' }),
    phone: Type.String({ description: 'E.164.' }),
    method: Type.String(),
    expires_in_secs: Type.Integer({ description: 'Validity of the code (300).' }),
    retry_after_secs: Type.Integer({ description: 'When a new code may be requested (60).' }),
  },
  { additionalProperties: false },
);
