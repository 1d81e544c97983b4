import { v7 as uuidv7 } from 'uuid';
import type { Merchant, MerchantStatus } from '../merchant/merchant.entity';
import { attemptJob } from './webhook-delivery';
import type {
  BankMerchantStatus,
  EnvelopeMerchant,
  TerminatedEnvelopeMerchant,
  WebhookChange,
  WebhookDelivery,
  WebhookEnvelope,
  WebhookEvent,
} from './webhook.entity';
import type { WebhookRepository } from './webhook.repository';

/** Stored lifecycle → what a bank sees (DESIGN.md §9). */
export const BANK_STATUS: Record<MerchantStatus, BankMerchantStatus> = {
  draft: 'inactive',
  inactive: 'inactive',
  active: 'active',
  suspended: 'suspended',
  deleted: 'deleted',
};

/**
 * Puts a lifecycle webhook for `merchant` into the outbox with the job of its first attempt: both in the caller's
 * transaction (`webhooks` bound to it, e.g. `tx.peer(WebhookRepository)` inside `transactional`), so they commit
 * with the change they announce or not at all. Nothing when the merchant's bank has no webhook endpoint; held (no
 * job until an operator enables it) when the endpoint is disabled.
 * `merchant` must carry its bank and the state after the change (its updated_at included: flush first).
 */
export async function enqueueWebhook(
  webhooks: WebhookRepository,
  merchant: Merchant,
  event: WebhookEvent,
  change: WebhookChange,
  occurredAt: Date,
): Promise<WebhookDelivery | null> {
  const bank = merchant.bank;
  if (!bank) return null;
  const endpoint = await webhooks.endpointOf(bank.id);
  if (!endpoint) return null;
  const id = uuidv7();
  const payload: WebhookEnvelope = {
    event_id: id,
    event,
    occurred_at: occurredAt.toISOString(),
    merchant: event === 'merchant.terminated' ? terminatedMerchantOf(merchant, bank.code) : envelopeMerchantOf(merchant, bank.code),
    change,
  };
  const held = !!endpoint.disabledAt;
  const delivery = webhooks.createDelivery({
    id,
    bankId: bank.id,
    merchantId: merchant.id,
    event,
    payload,
    status: held ? 'held' : 'pending',
    nextAttemptAt: occurredAt,
    createdAt: occurredAt,
    updatedAt: occurredAt,
  });
  if (!held) await webhooks.enqueue([attemptJob(id, 'automatic', 1)]);
  return delivery;
}

function envelopeMerchantOf(m: Merchant, bankCode: string): EnvelopeMerchant {
  return {
    id: m.id,
    nmid: m.primaryNmid ?? null,
    bank_code: bankCode,
    merchant_name: m.name,
    legal_name: m.legalName ?? null,
    status: BANK_STATUS[m.status],
    kyc_status: m.kycStatus,
    category_code: m.categoryCode ?? null,
    phone: m.phone ?? null,
    address: { city: m.addressCity ?? null, province: m.addressProvince ?? null, country: m.addressCountry },
    updated_at: m.updatedAt.toISOString(),
  };
}

/** psp-api.md §2: a terminated event carries only id, nmid, bank_code and status. */
function terminatedMerchantOf(m: Merchant, bankCode: string): TerminatedEnvelopeMerchant {
  return { id: m.id, nmid: m.primaryNmid ?? null, bank_code: bankCode, status: BANK_STATUS[m.status] };
}
