import type { LegalDocumentResponse } from './schema';

export interface LegalDocumentData {
  legalDocument: {
    code: string;
    title: string;
    version: string;
    status: string;
    pageTitle: string;
    heroTitle: string;
    heroSubtitle: string;
    infoTitle: string;
    infoDescription: string;
    supportTitle: string;
    supportBody: string;
    sections: { title: string; body: string }[];
    publishedAt: string;
    updatedAt: string;
  };
}

export function toLegalDocumentResponse({ legalDocument: d }: LegalDocumentData): LegalDocumentResponse {
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
