import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122100000_psp } from './Migration20261122100000_psp';
import { Migration20261122200000_lifecycle } from './Migration20261122200000_lifecycle';
import { Migration20261123100000_partners } from './Migration20261123100000_partners';
import { Migration20261124000000_users } from './Migration20261124000000_users';
import { Migration20261124010000_partner_rate } from './Migration20261124010000_partner_rate';
import { Migration20261124100000_notifications } from './Migration20261124100000_notifications';
import { Migration20261124110000_auth } from './Migration20261124110000_auth';
import { Migration20261124200000_core_merchant } from './Migration20261124200000_core_merchant';
import { Migration20261129100000_sandbox } from './Migration20261129100000_sandbox';
import { Migration20261129200000_job_queue } from './Migration20261129200000_job_queue';
import { Migration20261129400000_cache_invalidation } from './Migration20261129400000_cache_invalidation';
import { Migration20261202100000_merchant_profile_jobs } from './Migration20261202100000_merchant_profile_jobs';
import { Migration20261204100000_payment_target_merchant_jobs } from './Migration20261204100000_payment_target_merchant_jobs';
import { Migration20261207100000_payment_target_qris_fields } from './Migration20261207100000_payment_target_qris_fields';
import { Migration20261210100000_webhook_attempts_without_bodies } from './Migration20261210100000_webhook_attempts_without_bodies';
import { Migration20261212100000_daily_summary_and_language } from './Migration20261212100000_daily_summary_and_language';
import { Migration20261213100000_automatic_suspension } from './Migration20261213100000_automatic_suspension';
import { Migration20261214100000_sandbox_clock } from './Migration20261214100000_sandbox_clock';

/** Every migration of the merchant schema, in order. Append new ones; never edit an applied one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122100000_psp', class: Migration20261122100000_psp },
  { name: 'Migration20261122200000_lifecycle', class: Migration20261122200000_lifecycle },
  { name: 'Migration20261123100000_partners', class: Migration20261123100000_partners },
  { name: 'Migration20261124000000_users', class: Migration20261124000000_users },
  { name: 'Migration20261124010000_partner_rate', class: Migration20261124010000_partner_rate },
  { name: 'Migration20261124100000_notifications', class: Migration20261124100000_notifications },
  { name: 'Migration20261124110000_auth', class: Migration20261124110000_auth },
  { name: 'Migration20261124200000_core_merchant', class: Migration20261124200000_core_merchant },
  { name: 'Migration20261129100000_sandbox', class: Migration20261129100000_sandbox },
  { name: 'Migration20261129200000_job_queue', class: Migration20261129200000_job_queue },
  { name: 'Migration20261129400000_cache_invalidation', class: Migration20261129400000_cache_invalidation },
  { name: 'Migration20261202100000_merchant_profile_jobs', class: Migration20261202100000_merchant_profile_jobs },
  { name: 'Migration20261204100000_payment_target_merchant_jobs', class: Migration20261204100000_payment_target_merchant_jobs },
  { name: 'Migration20261207100000_payment_target_qris_fields', class: Migration20261207100000_payment_target_qris_fields },
  { name: 'Migration20261210100000_webhook_attempts_without_bodies', class: Migration20261210100000_webhook_attempts_without_bodies },
  { name: 'Migration20261212100000_daily_summary_and_language', class: Migration20261212100000_daily_summary_and_language },
  { name: 'Migration20261213100000_automatic_suspension', class: Migration20261213100000_automatic_suspension },
  { name: 'Migration20261214100000_sandbox_clock', class: Migration20261214100000_sandbox_clock },
];
