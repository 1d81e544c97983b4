import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261124300000_pos } from './Migration20261124300000_pos';
import { Migration20261126100000_sync_time } from './Migration20261126100000_sync_time';
import { Migration20261129300000_sales_order_qris } from './Migration20261129300000_sales_order_qris';
import { Migration20261216300000_till_closes } from './Migration20261216300000_till_closes';
import { Migration20261220100000_reconciliation_orders } from './Migration20261220100000_reconciliation_orders';

/** Every migration of the catalog schema, in order. Append new ones; never edit an applied one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261124300000_pos', class: Migration20261124300000_pos },
  { name: 'Migration20261126100000_sync_time', class: Migration20261126100000_sync_time },
  { name: 'Migration20261129300000_sales_order_qris', class: Migration20261129300000_sales_order_qris },
  { name: 'Migration20261216300000_till_closes', class: Migration20261216300000_till_closes },
  { name: 'Migration20261220100000_reconciliation_orders', class: Migration20261220100000_reconciliation_orders },
];
