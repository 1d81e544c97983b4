import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

export interface LegalDocumentSection {
  title: string;
  body: string;
}

@Entity({ tableName: 'legal_documents' })
export class LegalDocument {
  @PrimaryKey({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  version!: string;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: 'text' })
  pageTitle!: string;

  @Property({ type: 'text' })
  heroTitle!: string;

  @Property({ type: 'text' })
  heroSubtitle!: string;

  @Property({ type: 'text' })
  infoTitle!: string;

  @Property({ type: 'text' })
  infoDescription!: string;

  @Property({ type: 'text' })
  supportTitle!: string;

  @Property({ type: 'text' })
  supportBody!: string;

  @Property({ type: 'json' })
  sections!: LegalDocumentSection[];

  @Property({ type: 'datetime' })
  publishedAt!: Date;

  @Property({ type: 'datetime' })
  updatedAt!: Date;
}
