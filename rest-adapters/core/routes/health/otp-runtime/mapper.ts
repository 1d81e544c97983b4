import type { OtpRuntimeResponse } from './schema';

export interface CoreOtpRuntimeData {
  otpRuntimeStatus: { store: string; status: string };
}

export const OTP_STORE = 'postgresql';

export function toOtpRuntimeResponse(data: CoreOtpRuntimeData): OtpRuntimeResponse {
  return {
    service: 'core',
    status: data.otpRuntimeStatus.status === 'ok' ? 'ok' : 'unavailable',
    otp_runtime_store: data.otpRuntimeStatus.store,
  };
}
