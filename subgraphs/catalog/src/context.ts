import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '@lib/federation/subgraph-context';
import { CategoryService } from './modules/category/category.service';
import { PosCategoryService } from './modules/category/pos-category.service';
import { ProductService } from './modules/product/product.service';
import { QrisSettlementService } from './modules/sales-order/qris-settlement.service';
import { SalesOrderService } from './modules/sales-order/sales-order.service';
import { SyncService } from './modules/sync/sync.service';
import { TillCloseService } from './modules/till-close/till-close.service';

export function catalogRequestScope(em: EntityManager) {
  return {
    services: {
      category: new CategoryService(em),
      posCategory: new PosCategoryService(em),
      product: new ProductService(em),
      salesOrder: new SalesOrderService(em),
      qrisSettlement: new QrisSettlementService(em),
      sync: new SyncService(em),
      tillClose: new TillCloseService(em),
    },
  };
}

export type CatalogContext = SubgraphContext<ReturnType<typeof catalogRequestScope>>;
