import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@lib/crypto/secret-box';
import { NotFoundError } from '@lib/errors/app-error';
import type { PaymentReceivedPayload, TillCashDifferencePayload } from '@lib/domain/jobs/tasks';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { MerchantRepository } from '../merchant/merchant.repository';
import type { AccountSettingsService } from '../account-settings/account-settings.service';
import { type Language, languageOf, messageText, rupiah } from '../notification/message-catalogue';
import type { NotificationService, QueuedPushContent } from '../notification/notification.service';
import { UserRepository } from '../user/user.repository';
import type { MerchantTransactionAlertInput, MerchantTransactionAlertResultType } from './transaction-alert.type';

export {
  PAYMENT_RECEIVED_TASK,
  type PaymentReceivedPayload,
  TILL_CASH_DIFFERENCE_TASK,
  type TillCashDifferencePayload,
} from '@lib/domain/jobs/tasks';

export const TRANSACTION_ALERT_TEMPLATE = 'merchant_transaction_alert';

const MAKASSAR = new ZonedCalendar('Asia/Makassar');

/**
 * A successful payment told to the merchant's owners (core-api.md §6): a `transaction` push to each owner's
 * devices and the `merchant_transaction_alert` message to each owner's phone — as their account settings allow:
 * transaction notifications off means neither, push notifications off means no push. Provider failures are
 * counted, never thrown: the gateway's callback has been processed whatever the delivery.
 */
export class TransactionAlertService {
  private readonly merchants: MerchantRepository;
  private readonly users: UserRepository;

  constructor(
    em: EntityManager,
    private readonly notifications: NotificationService,
    private readonly accountSettings: AccountSettingsService,
  ) {
    this.merchants = new MerchantRepository(em);
    this.users = new UserRepository(em);
  }

  /**
   * A payment received on the live feed (docs/decisions/0202-live-payment-events.md, the `payment_received` job): a
   * `payment_received` push ("Pembayaran diterima Rp25.000", or in English) queued for the devices of every live member
   * who may see the outlet (owners, and others whose outlets include it or who are assigned none), as each member's
   * account settings allow (transaction and push notifications on), in each member's language, in one transaction. No message: the push is the live
   * signal. Each push is its own job (sent, recorded and retried there).
   */
  async queuePaymentReceived(
    input: PaymentReceivedPayload,
    box: SecretBox,
  ): Promise<{ status: 'queued' | 'no_recipient' | 'opted_out'; queued: number }> {
    const merchant = UUID_PATTERN.test(input.merchant_id) ? await this.merchants.byId(input.merchant_id) : null;
    if (!merchant) return { status: 'no_recipient', queued: 0 };
    const outletId = input.outlet_id.toLowerCase();
    const members = (await this.users.liveMembersOf(merchant.id)).filter(
      (m) => m.role === 'owner' || m.outletIds.length === 0 || m.outletIds.map((id) => id.toLowerCase()).includes(outletId),
    );
    // Only members with a device to push to (one query): the settings are read for those alone.
    const reachable =
      members.length === 0 ? new Set<string>() : await this.notifications.usersWithPushTokens([...new Set(members.map((m) => m.user.id))]);
    if (reachable.size === 0) return { status: 'no_recipient', queued: 0 };
    const told: { userId: string; language: Language }[] = [];
    for (const userId of reachable) {
      const settings = await this.accountSettings.of(userId);
      if (settings.notificationTransactionsEnabled && settings.notificationPushEnabled)
        told.push({ userId, language: languageOf(settings.appLanguage) });
    }
    if (told.length === 0) return { status: 'opted_out', queued: 0 };
    const content = (language: Language) => ({
      ...messageText('payment_received', language, { merchantName: merchant.name, amount: input.amount }),
      data: {
        type: 'payment_received',
        merchant_id: merchant.id,
        outlet_id: outletId,
        transaction_id: input.transaction_id,
        transaction_code: input.transaction_code,
        amount: String(input.amount),
        qris_payment_id: input.qris_payment_id,
        event_id: input.event_id,
      },
    });
    return { status: 'queued', queued: await this.queuePushes(box, told, content, `payment:${input.event_id}`) };
  }

  /**
   * A till close with a cash difference (the catalog subgraph's `till_close.cash_difference` job,
   * docs/decisions/0057-sales-orders-and-receipt-numbers.md): a `till_cash_difference` push ("Kas kurang Rp1.000", or in English) queued
   * for the devices of every live owner of the merchant whose push notifications are on, in each owner's language,
   * once per close (the push jobs' key).
   */
  async queueTillCashDifference(input: TillCashDifferencePayload, box: SecretBox): Promise<{ owners: number; queued: number }> {
    const merchant = UUID_PATTERN.test(input.merchant_id) ? await this.merchants.byId(input.merchant_id) : null;
    if (!merchant) return { owners: 0, queued: 0 };
    const owners = await this.users.ownersOf(merchant.id);
    const told: { userId: string; language: Language }[] = [];
    for (const { user } of owners) {
      const settings = await this.accountSettings.of(user.id);
      if (settings.notificationPushEnabled) told.push({ userId: user.id, language: languageOf(settings.appLanguage) });
    }
    // A shift's day is that of its last instant.
    const day = input.business_day ?? MAKASSAR.dateOf(new Date(Date.parse(input.period_end) - 1));
    const content = (language: Language) => ({
      ...messageText('till_cash_difference', language, {
        merchantName: merchant.name,
        kind: input.kind,
        day,
        cashierName: input.cashier_name,
        expectedCash: input.expected_cash,
        countedCash: input.counted_cash,
        difference: input.cash_difference,
      }),
      data: {
        type: 'till_cash_difference',
        merchant_id: merchant.id,
        outlet_id: input.outlet_id,
        close_id: input.close_id,
        cash_difference: String(input.cash_difference),
      },
    });
    return { owners: owners.length, queued: await this.queuePushes(box, told, content, `till_close:${input.close_id}`) };
  }

  /** One push per recipient, in its language, queued in one transaction (each push is its own job). */
  private queuePushes(
    box: SecretBox,
    told: { userId: string; language: Language }[],
    content: (language: Language) => QueuedPushContent,
    key: string,
  ): Promise<number> {
    return this.users.sqlTransaction(async (tx) => {
      let n = 0;
      for (const { userId, language } of told) n += await this.notifications.queuePushToUser(tx, box, userId, content(language), { key });
      return n;
    });
  }

  async notify(input: MerchantTransactionAlertInput): Promise<MerchantTransactionAlertResultType> {
    const merchant = UUID_PATTERN.test(input.merchantId) ? await this.merchants.byId(input.merchantId) : null;
    if (!merchant) throw new NotFoundError('merchant');
    const owners = await this.users.ownersOf(merchant.id);
    const result = { sentCount: 0, failedCount: 0, invalidatedCount: 0 };
    if (owners.length === 0) return { status: 'no_recipient', ...result };
    const amount = String(input.grossAmount);
    let told = 0;
    for (const { user } of owners) {
      const settings = await this.accountSettings.of(user.id);
      if (!settings.notificationTransactionsEnabled) continue;
      told += 1;
      const language = languageOf(settings.appLanguage);
      if (settings.notificationPushEnabled) {
        const push = await this.notifications.sendPushToUser(user.id, {
          ...messageText('merchant_transaction_alert', language, {
            merchantName: merchant.name,
            amount: input.grossAmount,
            transactionCode: input.transactionCode,
          }),
          data: { type: 'transaction', merchant_id: merchant.id, transaction_code: input.transactionCode, amount, gross_amount: amount },
        });
        result.sentCount += push.sentCount;
        result.failedCount += push.failedCount;
        result.invalidatedCount += push.invalidatedCount;
      }
      const message = await this.notifications.sendMessage(user.phone, TRANSACTION_ALERT_TEMPLATE, {
        merchant_name: merchant.name,
        amount: rupiah(input.grossAmount),
        transaction_code: input.transactionCode,
        reference_no: input.referenceNo ?? input.transactionCode,
      });
      if (message.status === 'failed') result.failedCount += 1;
      else result.sentCount += 1;
    }
    if (told === 0) return { status: 'opted_out', ...result };
    return { status: result.sentCount > 0 ? 'sent' : 'failed', ...result };
  }
}
