import type { EntityManager } from '@mikro-orm/postgresql';
import type { StatementReadyPayload } from '@lib/domain/jobs/tasks';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { MerchantRepository } from '../merchant/merchant.repository';
import { type Language, type StatementNotice, rupiah } from '../notification/message-catalogue';
import type { NotificationService } from '../notification/notification.service';
import { UserRepository } from '../user/user.repository';

export { STATEMENT_READY_TASK, type StatementReadyPayload } from '@lib/domain/jobs/tasks';

const MONTH: Record<Language, Intl.DateTimeFormat> = {
  id: new Intl.DateTimeFormat('id-ID', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
};

/**
 * A monthly statement generated in the transaction subgraph (`statement.ready`, docs/decisions/0242-daily-reconciliation.md):
 * an email to every live owner of the merchant whose address is verified, in their language — the month's figures and
 * the app's download path. No attachment: the files stay behind the owner's sign-in; an owner without a verified
 * address gets nothing (the statement is in the app all the same).
 */
export class StatementAlertService {
  private readonly merchants: MerchantRepository;
  private readonly users: UserRepository;

  constructor(
    em: EntityManager,
    private readonly notifications: NotificationService,
  ) {
    this.merchants = new MerchantRepository(em);
    this.users = new UserRepository(em);
  }

  /** Emails sent. */
  async notify(input: StatementReadyPayload): Promise<number> {
    const merchant = UUID_PATTERN.test(input.merchant_id) ? await this.merchants.byId(input.merchant_id) : null;
    if (!merchant) return 0;
    let emails = 0;
    for (const { user } of await this.users.ownersOf(merchant.id)) {
      if (!user.email || !user.emailVerifiedAt) continue;
      const language = await this.notifications.languageOf(user.id);
      const notice: StatementNotice = {
        merchant: merchant.name,
        scope: input.outlet_id ? `outlet ${input.outlet_id}` : language === 'id' ? 'semua outlet' : 'all outlets',
        month: MONTH[language].format(new Date(`${input.month}-15T12:00:00Z`)),
        count: String(input.transaction_count),
        gross: rupiah(input.gross_amount),
        net: rupiah(input.net_amount),
        path: `/merchant/statements/${input.statement_id}/download?format=pdf`,
      };
      await this.notifications.sendEmail(user.email, 'statement_ready', notice, user.id);
      emails += 1;
    }
    return emails;
  }
}
