import type { PublicLegalDocumentQuery } from '@rest-adapters/generated/operations';
import type { LegalDocumentResponse } from './schema';

export function toLegalDocumentResponse({ legalDocument: d }: PublicLegalDocumentQuery): LegalDocumentResponse {
  return {
    code: d.code,
    title: d.title,
    version: d.version,
    status: d.status,
    page_title: d.pageTitle,
    hero_title: d.heroTitle,
    hero_subtitle: d.heroSubtitle,
    info_title: d.infoTitle,
    info_description: d.infoDescription,
    support_title: d.supportTitle,
    support_body: d.supportBody,
    sections: d.sections.map(({ title, body }) => ({ title, body })),
    published_at: d.publishedAt,
    updated_at: d.updatedAt,
  };
}
