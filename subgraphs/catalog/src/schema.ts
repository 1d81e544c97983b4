import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '@lib/federation/build-subgraph-schema';
import { categoryReference } from './modules/category/category.reference';
import { CategoryResolver, MerchantCategoriesResolver } from './modules/category/category.resolver';
import { PosCategoryResolver } from './modules/category/pos-category.resolver';
import { ProductResolver } from './modules/product/product.resolver';
import { SalesOrderResolver } from './modules/sales-order/sales-order.resolver';
import { SyncResolver } from './modules/sync/sync.resolver';
import { TillCloseResolver } from './modules/till-close/till-close.resolver';

export function buildCatalogSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        CategoryResolver,
        MerchantCategoriesResolver,
        PosCategoryResolver,
        ProductResolver,
        SalesOrderResolver,
        SyncResolver,
        TillCloseResolver,
      ],
    },
    categoryReference,
  );
}
