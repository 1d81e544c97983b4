import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../../lib/federation/build-subgraph-schema';
import { categoryReference } from './modules/category/category.reference';
import { CategoryResolver, MerchantCategoriesResolver } from './modules/category/category.resolver';

export function buildCatalogSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [CategoryResolver, MerchantCategoriesResolver] }, categoryReference);
}
