import { type Static, Type } from '@sinclair/typebox';

export const OtpRuntimeResponse = Type.Object({
  service: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  otp_runtime_store: Type.String({ description: 'Where one-time passwords are kept: postgresql.' }),
});
export type OtpRuntimeResponse = Static<typeof OtpRuntimeResponse>;
