import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType('LegalDocumentSection')
export class LegalDocumentSectionType {
  @Field()
  title!: string;

  @Field()
  body!: string;
}

@ObjectType('LegalDocument', { description: 'A published legal document (terms of service, privacy policy).' })
export class LegalDocumentType {
  @Field()
  code!: string;

  @Field()
  title!: string;

  @Field()
  version!: string;

  @Field()
  status!: string;

  @Field()
  pageTitle!: string;

  @Field()
  heroTitle!: string;

  @Field()
  heroSubtitle!: string;

  @Field()
  infoTitle!: string;

  @Field()
  infoDescription!: string;

  @Field()
  supportTitle!: string;

  @Field()
  supportBody!: string;

  @Field(() => [LegalDocumentSectionType])
  sections!: LegalDocumentSectionType[];

  @Field(() => DateTimeResolver)
  publishedAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}
