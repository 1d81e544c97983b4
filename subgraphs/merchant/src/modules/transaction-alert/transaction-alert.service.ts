import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@lib/crypto/secret-box';
import { NotFoundError } from '@lib/errors/app-error';
import type { PaymentReceivedPayload } from '@lib/domain/jobs/tasks';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { MerchantRepository } from '../merchant/merchant.repository';
import type { AccountSettingsService } from '../account-settings/account-settings.service';
import type { NotificationService } from '../notification/notification.service';
import { UserRepository } from '../user/user.repository';
import type { MerchantTransactionAlertInput, MerchantTransactionAlertResultType } from './transaction-alert.type';

export { PAYMENT_RECEIVED_TASK, type PaymentReceivedPayload } from '@lib/domain/jobs/tasks';

export const TRANSACTION_ALERT_TEMPLATE = 'merchant_transaction_alert';

const RUPIAH = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });

/** "Rp 25.000": whole rupiah with Indonesian grouping. */
export function rupiah(amount: number): string {
  return `Rp ${RUPIAH.format(amount)}`;
}

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
   * `payment_received` push ("Pembayaran diterima Rp 25.000") queued for the devices of every live member who may see
   * the outlet (owners, and others whose outlets include it or who are assigned none), as each member's account
   * settings allow (transaction and push notifications on), in one transaction. No message: the push is the live
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
    const told: string[] = [];
    for (const userId of reachable) {
      const settings = await this.accountSettings.of(userId);
      if (settings.notificationTransactionsEnabled && settings.notificationPushEnabled) told.push(userId);
    }
    if (told.length === 0) return { status: 'opted_out', queued: 0 };
    const content = {
      title: merchant.name,
      body: `Pembayaran diterima ${rupiah(input.amount)}`,
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
    };
    const queued = await this.users.sqlTransaction(async (tx) => {
      let n = 0;
      for (const userId of told)
        n += await this.notifications.queuePushToUser(tx, box, userId, content, { key: `payment:${input.event_id}` });
      return n;
    });
    return { status: 'queued', queued };
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
      if (settings.notificationPushEnabled) {
        const push = await this.notifications.sendPushToUser(user.id, {
          title: 'Pembayaran diterima',
          body: `${merchant.name}: Rp${input.grossAmount.toLocaleString('id-ID')} (${input.transactionCode})`,
          data: { type: 'transaction', merchant_id: merchant.id, transaction_code: input.transactionCode, amount, gross_amount: amount },
        });
        result.sentCount += push.sentCount;
        result.failedCount += push.failedCount;
        result.invalidatedCount += push.invalidatedCount;
      }
      const message = await this.notifications.sendMessage(user.phone, TRANSACTION_ALERT_TEMPLATE, {
        merchant_name: merchant.name,
        amount,
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
