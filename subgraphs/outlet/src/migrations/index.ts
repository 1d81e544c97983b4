import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122100000_psp } from './Migration20261122100000_psp';
import { Migration20261124200000_terminal_details } from './Migration20261124200000_terminal_details';
import { Migration20261124300000_pos } from './Migration20261124300000_pos';
import { Migration20261126100000_sync_time } from './Migration20261126100000_sync_time';
import { Migration20261202100000_merchant_profiles } from './Migration20261202100000_merchant_profiles';
import { Migration20261204100000_payment_target_jobs } from './Migration20261204100000_payment_target_jobs';
import { Migration20261207100000_payment_target_qris_fields } from './Migration20261207100000_payment_target_qris_fields';
import { Migration20261215100000_settlement_accounts } from './Migration20261215100000_settlement_accounts';

/** Every migration of the outlet schema, in order. Append new ones; never edit an applied one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122100000_psp', class: Migration20261122100000_psp },
  { name: 'Migration20261124200000_terminal_details', class: Migration20261124200000_terminal_details },
  { name: 'Migration20261124300000_pos', class: Migration20261124300000_pos },
  { name: 'Migration20261126100000_sync_time', class: Migration20261126100000_sync_time },
  { name: 'Migration20261202100000_merchant_profiles', class: Migration20261202100000_merchant_profiles },
  { name: 'Migration20261204100000_payment_target_jobs', class: Migration20261204100000_payment_target_jobs },
  { name: 'Migration20261207100000_payment_target_qris_fields', class: Migration20261207100000_payment_target_qris_fields },
  { name: 'Migration20261215100000_settlement_accounts', class: Migration20261215100000_settlement_accounts },
];
