import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { LegalDocument } from './legal-document.entity';

/** Legal documents (`merchant.legal_documents`). */
export class LegalDocumentRepository extends Repository {
  published(code: string): Promise<LegalDocument | null> {
    return this.em.findOne(LegalDocument, { code, status: 'published' });
  }

  byCode(code: string): Promise<LegalDocument | null> {
    return this.em.findOne(LegalDocument, { code });
  }

  /** A new document, written by the next flush. */
  create(data: RequiredEntityData<LegalDocument>): LegalDocument {
    return this.em.create(LegalDocument, data);
  }

  /** Changes a loaded document (written by the next flush). */
  assign(document: LegalDocument, data: Partial<LegalDocument>): void {
    this.em.assign(document, data);
  }
}
