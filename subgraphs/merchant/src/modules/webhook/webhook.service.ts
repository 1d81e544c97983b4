import type { EntityManager } from '@mikro-orm/postgresql';
import { type SecretBox, newSecret } from '@lib/crypto/secret-box';
import { BadInputError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { BankRepository } from '../bank/bank.repository';
import { DELIVERY_STATUSES, type DeliveryStatus } from './webhook.entity';
import { type DeliveryRow, WebhookRepository } from './webhook.repository';

export const MAX_DELIVERY_LIST = 500;

/** What operators see of a delivery (`webhook:deliveries`, `webhook:redeliver`). */
export interface DeliveryView {
  event_id: string;
  event: string;
  bank_code: string;
  merchant_id: string;
  status: DeliveryStatus;
  attempts: number;
  /** RFC 3339, UTC. */
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  updated_at: string;
}

export interface InfoLog {
  info(obj: object, msg: string): void;
}

/** Operator side of lifecycle webhooks: a bank's endpoint and secret, the outbox listing, redelivery. */
export class WebhookService {
  private readonly repo: WebhookRepository;

  constructor(
    em: EntityManager,
    private readonly box: SecretBox,
  ) {
    this.repo = new WebhookRepository(em);
  }

  /**
   * Sets the bank's endpoint (one per bank) with a new signing secret, returned once and stored sealed.
   * Calling again replaces URL and secret: pending deliveries go to the new URL, signed with the new secret.
   */
  async setEndpoint(
    bankCode: string,
    url: string,
    options: { requireHttps: boolean },
  ): Promise<{ bank_code: string; url: string; webhook_secret: string }> {
    const bank = await this.repo.peer(BankRepository).byCode(bankCode);
    if (!bank) throw new BadInputError(`unknown bank ${bankCode}`);
    const href = validEndpointUrl(url, options.requireHttps);
    const secret = newSecret();
    const now = new Date();
    await this.repo.upsertEndpoint(bank.id, href, this.box.seal(secret), now);
    return { bank_code: bank.code, url: href, webhook_secret: secret };
  }

  /** Newest first, of live banks (or of sandbox ones, docs/decisions/0204-sandbox.md); optionally one status and/or one bank. */
  async listDeliveries(filter: { status?: string; bankCode?: string; limit?: number; sandbox?: boolean } = {}): Promise<DeliveryView[]> {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIST)
      throw new BadInputError(`limit must be between 1 and ${MAX_DELIVERY_LIST}`);
    if (filter.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(filter.status)) {
      throw new BadInputError(`status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    return (await this.repo.listDeliveries({ status: filter.status, bankCode: filter.bankCode, limit, sandbox: filter.sandbox })).map(
      toView,
    );
  }

  /**
   * Sends a delivery again: back to pending, due now. Its attempts are kept, so a failed delivery gets one
   * more attempt (failed again if that fails); a delivered one is sent again (banks de-duplicate by event_id).
   */
  async redeliver(eventId: string, log?: InfoLog): Promise<DeliveryView> {
    if (!UUID_PATTERN.test(eventId)) throw new NotFoundError('delivery');
    const updated = await this.repo.requeue(eventId);
    if (updated === 0) throw new NotFoundError('delivery');
    const delivery = toView((await this.repo.deliveryById(eventId))!);
    log?.info(
      { event_id: delivery.event_id, event: delivery.event, bank_code: delivery.bank_code, attempts: delivery.attempts },
      'webhook redelivery requested',
    );
    return delivery;
  }
}

function toView(row: DeliveryRow): DeliveryView {
  const iso = (value: string | Date) => new Date(value).toISOString();
  return {
    ...row,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at),
    delivered_at: row.delivered_at === null ? null : iso(row.delivered_at),
    updated_at: iso(row.updated_at),
  };
}

/** An absolute http(s) URL without credentials; https only when required (production). */
export function validEndpointUrl(url: string, requireHttps: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadInputError('url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new BadInputError('url must be an absolute http(s) URL');
  if (requireHttps && parsed.protocol !== 'https:') throw new BadInputError('url must use https in production');
  if (parsed.username || parsed.password) throw new BadInputError('url must not carry credentials');
  if (parsed.href.length > 2048) throw new BadInputError('url must be at most 2048 characters');
  return parsed.href;
}
