import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@lib/crypto/secret-box';
import type { SettlementAccountChangedPayload } from '@lib/domain/jobs/tasks';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { MerchantRepository } from '../merchant/merchant.repository';
import { type Language, type SettlementAccountNotice, messageText } from '../notification/message-catalogue';
import type { NotificationService } from '../notification/notification.service';
import { UserRepository } from '../user/user.repository';

export { SETTLEMENT_ACCOUNT_CHANGED_TASK, type SettlementAccountChangedPayload } from '@lib/domain/jobs/tasks';

const WHEN: Record<Language, Intl.DateTimeFormat> = {
  id: new Intl.DateTimeFormat('id-ID', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Makassar' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Makassar' }),
};

export interface SettlementAlertOutcome {
  owners: number;
  pushes: number;
  emails: number;
  messages: number;
}

/**
 * A settlement account requested or cancelled (the outlet subgraph's `settlement_account.changed` job,
 * docs/decisions/0238-settlement-accounts.md), told to every live owner of the merchant on every channel: a push to
 * each device (queued, retried), an email when the owner has an address, and the messaging template to their phone —
 * in each owner's language, whatever their notification settings (a change of account is the takeover fraud they must
 * hear of). Account numbers are masked in every text and record.
 */
export class SettlementAlertService {
  private readonly merchants: MerchantRepository;
  private readonly users: UserRepository;

  constructor(
    em: EntityManager,
    private readonly notifications: NotificationService,
  ) {
    this.merchants = new MerchantRepository(em);
    this.users = new UserRepository(em);
  }

  async notify(input: SettlementAccountChangedPayload, box: SecretBox): Promise<SettlementAlertOutcome> {
    const outcome: SettlementAlertOutcome = { owners: 0, pushes: 0, emails: 0, messages: 0 };
    const merchant = UUID_PATTERN.test(input.merchant_id) ? await this.merchants.byId(input.merchant_id) : null;
    if (!merchant) return outcome;
    const owners = await this.users.ownersOf(merchant.id);
    const template = input.action === 'requested' ? 'settlement_account_changed' : 'settlement_account_change_cancelled';
    for (const owner of owners) {
      const user = owner.user;
      outcome.owners += 1;
      const language = await this.notifications.languageOf(user.id);
      const notice: SettlementAccountNotice = {
        merchant: merchant.name,
        scope: input.outlet_id ? `outlet ${input.outlet_name ?? ''}`.trim() : language === 'id' ? 'korporat' : 'corporate',
        bank: input.bank_code,
        account: input.account_number_masked,
        holder: input.holder_name,
        effective: `${WHEN[language].format(new Date(input.effective_at))} WITA`,
      };
      outcome.pushes += await this.users.sqlTransaction((tx) =>
        this.notifications.queuePushToUser(
          tx,
          box,
          user.id,
          {
            ...messageText(template, language, notice),
            data: {
              type: template,
              merchant_id: merchant.id,
              outlet_id: input.outlet_id,
              account_id: input.account_id,
              effective_at: input.effective_at,
            },
          },
          { key: `settlement_account:${input.account_id}:${input.action}` },
        ),
      );
      if (user.email) {
        await this.notifications.sendEmail(user.email, template, notice, user.id);
        outcome.emails += 1;
      }
      await this.notifications.sendMessage(user.phone, template, notice);
      outcome.messages += 1;
    }
    return outcome;
  }
}
