import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { BankWebhookEndpoint, type DeliveryStatus, WebhookDelivery } from './webhook.entity';

type Timestamp = string | Date;

/** A delivery as listed (plain row: bank code joined, timestamps as the driver returns them). */
export interface DeliveryRow {
  event_id: string;
  event: string;
  bank_code: string;
  merchant_id: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  updated_at: Timestamp;
}

/**
 * Lifecycle webhooks (`merchant.bank_webhook_endpoints`, `merchant.webhook_deliveries`): the outbox a lifecycle
 * change writes to in its unit of work, and the operators' side. (The dispatcher, a background worker, claims
 * and updates deliveries with its own statements: webhook-dispatcher.ts.)
 */
export class WebhookRepository extends Repository {
  endpointOf(bankId: string): Promise<BankWebhookEndpoint | null> {
    return this.em.findOne(BankWebhookEndpoint, { bankId });
  }

  /** A new delivery in the outbox, written by the next flush (so it commits with the change it announces). */
  createDelivery(data: RequiredEntityData<WebhookDelivery>): WebhookDelivery {
    return this.em.create(WebhookDelivery, data);
  }

  /** Sets the bank's endpoint (one per bank), replacing URL and sealed secret. */
  async upsertEndpoint(bankId: string, url: string, secretSealed: string, now: Date): Promise<void> {
    await this.db('merchant.bank_webhook_endpoints')
      .insert({ bank_id: bankId, url, secret_sealed: secretSealed, created_at: now, updated_at: now })
      .onConflict('bank_id')
      .merge(['url', 'secret_sealed', 'updated_at']);
  }

  /** Deliveries newest first, of live banks (or of sandbox ones), optionally of one status and/or one bank. */
  listDeliveries(filter: { status?: string; bankCode?: string; limit: number; sandbox?: boolean }): Promise<DeliveryRow[]> {
    const query = this.deliveries()
      .where('b.sandbox', filter.sandbox ?? false)
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(filter.limit);
    if (filter.status) query.where('d.status', filter.status);
    if (filter.bankCode) query.where('b.code', filter.bankCode);
    return query as Promise<DeliveryRow[]>;
  }

  async deliveryById(id: string): Promise<DeliveryRow | undefined> {
    const [row] = (await this.deliveries().where('d.id', id)) as DeliveryRow[];
    return row;
  }

  /** Back to pending, due now (attempts kept); how many rows changed (0: no such delivery). */
  requeue(id: string): Promise<number> {
    const knex = this.em.getKnex();
    return knex('merchant.webhook_deliveries')
      .where('id', id)
      .update({ status: 'pending', next_attempt_at: knex.fn.now(), updated_at: knex.fn.now() });
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
