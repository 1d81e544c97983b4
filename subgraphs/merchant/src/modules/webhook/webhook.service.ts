import type { EntityManager } from '@mikro-orm/postgresql';
import { type SecretBox, newSecret } from '@lib/crypto/secret-box';
import { BadInputError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { Bank } from '../bank/bank.entity';
import { DELIVERY_STATUSES, type DeliveryStatus } from './webhook.entity';

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
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
  ) {}

  /**
   * Sets the bank's endpoint (one per bank) with a new signing secret, returned once and stored sealed.
   * Calling again replaces URL and secret: pending deliveries go to the new URL, signed with the new secret.
   */
  async setEndpoint(
    bankCode: string,
    url: string,
    options: { requireHttps: boolean },
  ): Promise<{ bank_code: string; url: string; webhook_secret: string }> {
    const bank = await this.em.findOne(Bank, { code: bankCode });
    if (!bank) throw new BadInputError(`unknown bank ${bankCode}`);
    const href = validEndpointUrl(url, options.requireHttps);
    const secret = newSecret();
    const now = new Date();
    await this.em
      .getKnex()('merchant.bank_webhook_endpoints')
      .insert({ bank_id: bank.id, url: href, secret_sealed: this.box.seal(secret), created_at: now, updated_at: now })
      .onConflict('bank_id')
      .merge(['url', 'secret_sealed', 'updated_at']);
    return { bank_code: bank.code, url: href, webhook_secret: secret };
  }

  /** Newest first; optionally one status and/or one bank. */
  async listDeliveries(filter: { status?: string; bankCode?: string; limit?: number } = {}): Promise<DeliveryView[]> {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIST)
      throw new BadInputError(`limit must be between 1 and ${MAX_DELIVERY_LIST}`);
    if (filter.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(filter.status)) {
      throw new BadInputError(`status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    const query = this.deliveries()
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(limit);
    if (filter.status) query.where('d.status', filter.status);
    if (filter.bankCode) query.where('b.code', filter.bankCode);
    return ((await query) as RawDelivery[]).map(toView);
  }

  /**
   * Sends a delivery again: back to pending, due now. Its attempts are kept, so a failed delivery gets one
   * more attempt (failed again if that fails); a delivered one is sent again (banks de-duplicate by event_id).
   */
  async redeliver(eventId: string, log?: InfoLog): Promise<DeliveryView> {
    if (!UUID_PATTERN.test(eventId)) throw new NotFoundError('delivery');
    const knex = this.em.getKnex();
    const updated = await knex('merchant.webhook_deliveries')
      .where('id', eventId)
      .update({ status: 'pending', next_attempt_at: knex.fn.now(), updated_at: knex.fn.now() });
    if (updated === 0) throw new NotFoundError('delivery');
    const [delivery] = ((await this.deliveries().where('d.id', eventId)) as RawDelivery[]).map(toView);
    log?.info(
      { event_id: delivery.event_id, event: delivery.event, bank_code: delivery.bank_code, attempts: delivery.attempts },
      'webhook redelivery requested',
    );
    return delivery;
  }

  private deliveries() {
    return this.em
      .getKnex()('merchant.webhook_deliveries as d')
      .join('merchant.banks as b', 'b.id', 'd.bank_id')
      .select(
        'd.id as event_id',
        'd.event',
        'b.code as bank_code',
        'd.merchant_id',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_status_code',
        'd.last_error',
        'd.created_at',
        'd.delivered_at',
        'd.updated_at',
      );
  }
}

type Timestamp = string | Date;
type RawDelivery = Omit<DeliveryView, 'next_attempt_at' | 'created_at' | 'delivered_at' | 'updated_at'> & {
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  updated_at: Timestamp;
};

function toView(row: RawDelivery): DeliveryView {
  const iso = (value: Timestamp) => new Date(value).toISOString();
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
