import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261123000000_payment_intake } from './Migration20261123000000_payment_intake';
import { Migration20261124050000_outlet_index } from './Migration20261124050000_outlet_index';
import { Migration20261124060000_scoring_rollup } from './Migration20261124060000_scoring_rollup';
import { Migration20261124200000_merchant_period } from './Migration20261124200000_merchant_period';
import { Migration20261127100000_qris_payments } from './Migration20261127100000_qris_payments';
import { Migration20261128100000_payment_feed } from './Migration20261128100000_payment_feed';
import { Migration20261129200100_payment_push_jobs } from './Migration20261129200100_payment_push_jobs';
import { Migration20261129300000_qris_orders_cancel } from './Migration20261129300000_qris_orders_cancel';
import { Migration20261130100000_partitioned_history } from './Migration20261130100000_partitioned_history';
import { Migration20261201100000_statement_guards } from './Migration20261201100000_statement_guards';
import { Migration20261203100000_rollup_insert_fast_path } from './Migration20261203100000_rollup_insert_fast_path';
import { Migration20261204100000_payment_targets } from './Migration20261204100000_payment_targets';
import { Migration20261205100000_merchant_pages_by_window } from './Migration20261205100000_merchant_pages_by_window';
import { Migration20261206100000_archive_month_partitions } from './Migration20261206100000_archive_month_partitions';
import { Migration20261207100000_payment_target_outlet_index } from './Migration20261207100000_payment_target_outlet_index';
import { Migration20261207200000_payment_target_qris_fields } from './Migration20261207200000_payment_target_qris_fields';
import { Migration20261208490000_payment_feed_notify } from './Migration20261208490000_payment_feed_notify';
import { Migration20261210100000_statements } from './Migration20261210100000_statements';
import { Migration20261216100000_mdr_policy } from './Migration20261216100000_mdr_policy';
import { Migration20261220100000_reconciliation } from './Migration20261220100000_reconciliation';

/** Every migration of the transaction schema, in order. Append new ones; never edit an applied one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261123000000_payment_intake', class: Migration20261123000000_payment_intake },
  { name: 'Migration20261124050000_outlet_index', class: Migration20261124050000_outlet_index },
  { name: 'Migration20261124060000_scoring_rollup', class: Migration20261124060000_scoring_rollup },
  { name: 'Migration20261124200000_merchant_period', class: Migration20261124200000_merchant_period },
  { name: 'Migration20261127100000_qris_payments', class: Migration20261127100000_qris_payments },
  { name: 'Migration20261128100000_payment_feed', class: Migration20261128100000_payment_feed },
  { name: 'Migration20261129200100_payment_push_jobs', class: Migration20261129200100_payment_push_jobs },
  { name: 'Migration20261129300000_qris_orders_cancel', class: Migration20261129300000_qris_orders_cancel },
  { name: 'Migration20261130100000_partitioned_history', class: Migration20261130100000_partitioned_history },
  { name: 'Migration20261201100000_statement_guards', class: Migration20261201100000_statement_guards },
  { name: 'Migration20261203100000_rollup_insert_fast_path', class: Migration20261203100000_rollup_insert_fast_path },
  { name: 'Migration20261204100000_payment_targets', class: Migration20261204100000_payment_targets },
  { name: 'Migration20261205100000_merchant_pages_by_window', class: Migration20261205100000_merchant_pages_by_window },
  { name: 'Migration20261206100000_archive_month_partitions', class: Migration20261206100000_archive_month_partitions },
  { name: 'Migration20261207100000_payment_target_outlet_index', class: Migration20261207100000_payment_target_outlet_index },
  { name: 'Migration20261207200000_payment_target_qris_fields', class: Migration20261207200000_payment_target_qris_fields },
  { name: 'Migration20261208490000_payment_feed_notify', class: Migration20261208490000_payment_feed_notify },
  { name: 'Migration20261210100000_statements', class: Migration20261210100000_statements },
  { name: 'Migration20261216100000_mdr_policy', class: Migration20261216100000_mdr_policy },
  { name: 'Migration20261220100000_reconciliation', class: Migration20261220100000_reconciliation },
];
