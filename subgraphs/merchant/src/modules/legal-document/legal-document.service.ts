import type { EntityManager } from '@mikro-orm/postgresql';
import type { LegalDocument } from './legal-document.entity';
import { LegalDocumentRepository } from './legal-document.repository';
import { LegalDocumentNotFoundError } from './legal-document.errors';
import { LEGAL_DOCUMENTS } from './legal-documents.data';
import type { LegalDocumentType } from './legal-document.type';

export class LegalDocumentService {
  private readonly repo: LegalDocumentRepository;

  constructor(em: EntityManager) {
    this.repo = new LegalDocumentRepository(em);
  }

  /** The published document with this code; unknown codes are a not-found, not a validation error. */
  async published(code: string): Promise<LegalDocumentType> {
    const document = await this.repo.published(code);
    if (!document) throw new LegalDocumentNotFoundError();
    return document;
  }

  /**
   * Writes the documents shipped with the code. Idempotent: a row changes (and its updated_at moves)
   * only when its content differs from what is stored.
   */
  async syncShipped(now = new Date()): Promise<{ inserted: number; updated: number }> {
    let inserted = 0;
    let updated = 0;
    for (const seed of LEGAL_DOCUMENTS) {
      const content = { ...seed, publishedAt: new Date(seed.publishedAt) };
      const existing = await this.repo.byCode(seed.code);
      if (!existing) {
        this.repo.create({ ...content, updatedAt: now });
        inserted += 1;
      } else if (differs(existing, content)) {
        this.repo.assign(existing, { ...content, updatedAt: now });
        updated += 1;
      }
    }
    await this.repo.flush();
    return { inserted, updated };
  }
}

function differs(existing: LegalDocument, next: Omit<LegalDocument, 'updatedAt'>): boolean {
  const { publishedAt, sections, ...scalars } = next;
  return (
    existing.publishedAt.getTime() !== publishedAt.getTime() ||
    // jsonb reorders object keys, so compare sections field by field.
    existing.sections.length !== sections.length ||
    sections.some((section, i) => existing.sections[i].title !== section.title || existing.sections[i].body !== section.body) ||
    Object.entries(scalars).some(([key, value]) => existing[key as keyof LegalDocument] !== value)
  );
}
