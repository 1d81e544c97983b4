import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '../../../lib/federation/subgraph-context';
import { CategoryService } from './modules/category/category.service';

export function catalogRequestScope(em: EntityManager) {
  return { services: { category: new CategoryService(em) } };
}

export type CatalogContext = SubgraphContext<ReturnType<typeof catalogRequestScope>>;
