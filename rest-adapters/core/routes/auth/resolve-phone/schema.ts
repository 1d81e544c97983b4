import { Type } from '@sinclair/typebox';
import { SessionBody } from '@rest-adapters/core/auth/session';
import { DeviceFields, PhoneField } from '../device-schema';

export const ResolvePhoneBody = Type.Object({ phone: PhoneField, ...DeviceFields });

export const VerificationRequired = Type.Object(
  {
    status: Type.Literal('verification_required'),
    phone: Type.String({ description: 'E.164.' }),
    reason: Type.Union([Type.Literal('new_user'), Type.Literal('new_device')], {
      description: 'new_user: no account yet; new_device: the device is not trusted.',
    }),
    verification_channel: Type.Literal('messaging', { description: 'Where POST /auth/request-otp sends the code.' }),
  },
  { additionalProperties: false, title: 'CoreVerificationRequired' },
);

export const ResolvePhoneResponse = Type.Unsafe({ oneOf: [SessionBody, VerificationRequired] });
