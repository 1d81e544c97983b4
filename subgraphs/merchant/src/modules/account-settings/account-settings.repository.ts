import { Repository } from '@lib/db/repository';
import { AccountSettings } from './account-settings.entity';

/** App users' account settings (`merchant.account_settings`, one row per user once saved). */
export class AccountSettingsRepository extends Repository {
  ofUser(userId: string): Promise<AccountSettings | null> {
    return this.em.findOne(AccountSettings, { userId });
  }

  /** The user's saved app_language; null when the user saved no settings (the default applies). */
  async appLanguageOf(userId: string): Promise<string | null> {
    const [row] = await this.rows<{ app_language: string }>('select app_language from merchant.account_settings where user_id = ?', [
      userId,
    ]);
    return row?.app_language ?? null;
  }

  /** Inserts or replaces the user's row; the row as stored. */
  upsert(row: AccountSettings): Promise<AccountSettings> {
    return this.em.upsert(AccountSettings, row);
  }
}
