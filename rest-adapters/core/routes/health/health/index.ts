import { HttpError } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { CoreHealthDocument } from '@rest-adapters/generated/operations';
import { UNAVAILABLE, toHealthResponse } from './mapper';
import { HealthResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/health',
  summary: 'Health of the core API and its reference database',
  description: '200 while the database answers (status degraded when reference data is missing); 503 when it does not.',
  tags: ['core: health'],
  schema: { response: { 200: HealthResponse, 503: HealthResponse } },
  operationId: 'CoreHealth',
  examples: {
    responses: {
      200: { service: 'core', status: 'ok', db_reference_status: 'ok' },
      503: { service: 'core', status: 'unavailable', db_reference_status: 'unavailable' },
    },
  },
  run: async (_input, { execute, status }) => {
    try {
      return toHealthResponse(await execute(CoreHealthDocument, {}));
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 503) throw error;
      status(503);
      return UNAVAILABLE;
    }
  },
});
