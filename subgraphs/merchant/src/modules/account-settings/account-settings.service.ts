import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import type { AccountSettings } from './account-settings.entity';
import { AccountSettingsRepository } from './account-settings.repository';
import type { AccountSettingsInput, AccountSettingsType } from './account-settings.type';

export const APP_LANGUAGES = ['id', 'en'];

/** core-api.md §2 "Default when no record exists". */
export const DEFAULT_ACCOUNT_SETTINGS = {
  notificationPushEnabled: true,
  notificationTransactionsEnabled: true,
  notificationPromotionsEnabled: true,
  notificationDailySummaryEnabled: true,
  appLanguage: 'id',
  privacyAnalyticsEnabled: true,
  privacyDataSharingEnabled: false,
} as const;

type Settings = Omit<AccountSettingsType, 'userId' | 'updatedAt'>;
const FIELDS = Object.keys(DEFAULT_ACCOUNT_SETTINGS) as (keyof Settings)[];

export class AccountSettingsService {
  private readonly repo: AccountSettingsRepository;

  constructor(
    em: EntityManager,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new AccountSettingsRepository(em);
  }

  async of(userId: string): Promise<AccountSettingsType> {
    const row = await this.repo.ofUser(userId);
    return row ? toType(row) : { userId, ...DEFAULT_ACCOUNT_SETTINGS, updatedAt: null };
  }

  /** Saves the given fields over the current values (the defaults when none are saved yet). */
  async update(userId: string, input: AccountSettingsInput): Promise<AccountSettingsType> {
    if (input.appLanguage != null && !APP_LANGUAGES.includes(input.appLanguage))
      throw new BadInputError(`app_language must be one of ${APP_LANGUAGES.join(', ')}`, {
        field: 'app_language',
        rule: 'enum',
        allowed: APP_LANGUAGES,
      });
    const current = await this.of(userId);
    const next: Record<string, unknown> = { updatedAt: this.clock() };
    for (const field of FIELDS) next[field] = input[field] ?? current[field];
    const row = await this.repo.upsert({ userId, ...next } as AccountSettings);
    return toType(row);
  }
}

function toType(row: AccountSettings): AccountSettingsType {
  const { userId, updatedAt } = row;
  return { userId, updatedAt, ...Object.fromEntries(FIELDS.map((f) => [f, row[f]])) } as AccountSettingsType;
}
