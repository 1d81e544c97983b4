import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '../../../lib/federation/subgraph-context';
import { LegalDocumentService } from './modules/legal-document/legal-document.service';
import { MerchantService } from './modules/merchant/merchant.service';
import { ReferenceService } from './modules/reference/reference.service';

/** The request scope of the merchant subgraph: one instance of each service around the request's EntityManager. */
export function merchantRequestScope(em: EntityManager) {
  return {
    services: {
      merchant: new MerchantService(em),
      reference: new ReferenceService(em),
      legalDocument: new LegalDocumentService(em),
    },
  };
}

export type MerchantContext = SubgraphContext<ReturnType<typeof merchantRequestScope>>;
