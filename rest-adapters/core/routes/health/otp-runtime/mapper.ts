import type { CoreOtpRuntimeQuery } from '@rest-adapters/generated/operations';
import type { OtpRuntimeResponse } from './schema';

export const OTP_STORE = 'postgresql';

export function toOtpRuntimeResponse(data: CoreOtpRuntimeQuery): OtpRuntimeResponse {
  return {
    service: 'core',
    status: data.otpRuntimeStatus.status === 'ok' ? 'ok' : 'unavailable',
    otp_runtime_store: data.otpRuntimeStatus.store,
  };
}
