import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toLegalDocumentResponse } from './mapper';
import { LegalDocumentQuery, LegalDocumentResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/public/legal-documents',
  summary: 'Get a published legal document',
  tags: ['core: public'],
  schema: { querystring: LegalDocumentQuery, response: { 200: LegalDocumentResponse, ...errorResponses(400, 404) } },
  operation: loadOperation(__dirname),
  cacheable: true,
  variables: ({ query }) => ({ code: query.code }),
  map: toLegalDocumentResponse,
});
