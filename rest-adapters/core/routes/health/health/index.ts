import { HttpError } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { type CoreHealthData, UNAVAILABLE, toHealthResponse } from './mapper';
import { HealthResponse } from './schema';

const operation = loadOperation(__dirname);

export default defineRoute({
  method: 'GET',
  url: '/health',
  summary: 'Health of the core API and its reference database',
  description: '200 while the database answers (status degraded when reference data is missing); 503 when it does not.',
  tags: ['core: health'],
  schema: { response: { 200: HealthResponse, 503: HealthResponse } },
  operation,
  handle: async (_input, runtime, _req, reply) => {
    try {
      return toHealthResponse(await runtime.run<CoreHealthData>(operation, {}));
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 503) throw error;
      return reply.code(503).send(UNAVAILABLE);
    }
  },
});
