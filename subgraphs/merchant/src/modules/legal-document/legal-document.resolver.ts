import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { PUBLIC } from '@lib/federation/build-subgraph-schema';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { LegalDocumentType } from './legal-document.type';

@Resolver()
export class LegalDocumentResolver {
  @Authorized(PUBLIC)
  @Query(() => LegalDocumentType, { description: 'A published legal document; NOT_FOUND for an unknown code.' })
  legalDocument(
    @Arg('code', { description: 'Document code, e.g. terms or privacy.' }) code: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<LegalDocumentType> {
    return ctx.services.legalDocument.published(code);
  }
}
