import { type Static, Type } from '@sinclair/typebox';

export const LegalDocumentQuery = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64, description: 'terms_of_service or privacy_policy; other codes answer 404.' }) },
  { additionalProperties: false },
);
export type LegalDocumentQuery = Static<typeof LegalDocumentQuery>;

export const LegalDocumentResponse = Type.Object({
  code: Type.String(),
  title: Type.String(),
  version: Type.String(),
  status: Type.String(),
  page_title: Type.String(),
  hero_title: Type.String(),
  hero_subtitle: Type.String(),
  info_title: Type.String(),
  info_description: Type.String(),
  support_title: Type.String(),
  support_body: Type.String(),
  sections: Type.Array(Type.Object({ title: Type.String(), body: Type.String() })),
  published_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type LegalDocumentResponse = Static<typeof LegalDocumentResponse>;
