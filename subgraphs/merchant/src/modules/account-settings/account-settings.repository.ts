import { Repository } from '@lib/db/repository';
import { AccountSettings } from './account-settings.entity';

/** App users' account settings (`merchant.account_settings`, one row per user once saved). */
export class AccountSettingsRepository extends Repository {
  ofUser(userId: string): Promise<AccountSettings | null> {
    return this.em.findOne(AccountSettings, { userId });
  }

  /** Inserts or replaces the user's row; the row as stored. */
  upsert(row: AccountSettings): Promise<AccountSettings> {
    return this.em.upsert(AccountSettings, row);
  }
}
