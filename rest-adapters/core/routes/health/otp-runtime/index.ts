import { HttpError } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { CoreOtpRuntimeDocument } from '@rest-adapters/generated/operations';
import { OTP_STORE, toOtpRuntimeResponse } from './mapper';
import { OtpRuntimeResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/health/otp-runtime',
  summary: 'Status of the one-time-password store',
  tags: ['core: health'],
  schema: { response: { 200: OtpRuntimeResponse, 503: OtpRuntimeResponse } },
  operationId: 'CoreOtpRuntime',
  examples: {
    responses: {
      200: { service: 'core', status: 'ok', otp_runtime_store: 'postgresql' },
      503: { service: 'core', status: 'unavailable', otp_runtime_store: 'postgresql' },
    },
  },
  run: async (_input, { execute, status }) => {
    try {
      return toOtpRuntimeResponse(await execute(CoreOtpRuntimeDocument, {}));
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 503) throw error;
      status(503);
      return { service: 'core', status: 'unavailable' as const, otp_runtime_store: OTP_STORE };
    }
  },
});
