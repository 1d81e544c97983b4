import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PublicLegalDocumentDocument } from '@rest-adapters/generated/operations';
import { toLegalDocumentResponse } from './mapper';
import { LegalDocumentQuery, LegalDocumentResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/public/legal-documents',
  summary: 'Get a published legal document',
  tags: ['core: public'],
  schema: { querystring: LegalDocumentQuery, response: { 200: LegalDocumentResponse, ...errorResponses(400, 404) } },
  operationId: 'PublicLegalDocument',
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toLegalDocumentResponse(await execute(PublicLegalDocumentDocument, { code: query.code }));
  },
});
