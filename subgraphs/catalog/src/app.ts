import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { catalogRequestScope } from './context';
import { migrations } from './migrations';
import { Category } from './modules/category/category.entity';
import { buildCatalogSchema } from './schema';
import { seedCatalogDemo } from './seed/demo.seed';

/** The catalog subgraph: the point of sale (categories, products, stock, customers, sales orders, sync). */
export const catalogSubgraph: SubgraphDefinition<ReturnType<typeof catalogRequestScope>> = {
  name: 'catalog',
  entities: [Category],
  migrations,
  buildSchema: buildCatalogSchema,
  requestScope: catalogRequestScope,
  seedDemo: seedCatalogDemo,
};
