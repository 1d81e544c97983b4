import { HttpError } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { type CoreOtpRuntimeData, OTP_STORE, toOtpRuntimeResponse } from './mapper';
import { OtpRuntimeResponse } from './schema';

const operation = loadOperation(__dirname);

export default defineRoute({
  method: 'GET',
  url: '/health/otp-runtime',
  summary: 'Status of the one-time-password store',
  tags: ['core: health'],
  schema: { response: { 200: OtpRuntimeResponse, 503: OtpRuntimeResponse } },
  operation,
  handle: async (_input, runtime, _req, reply) => {
    try {
      return toOtpRuntimeResponse(await runtime.run<CoreOtpRuntimeData>(operation, {}));
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 503) throw error;
      return reply.code(503).send({ service: 'core', status: 'unavailable', otp_runtime_store: OTP_STORE });
    }
  },
});
