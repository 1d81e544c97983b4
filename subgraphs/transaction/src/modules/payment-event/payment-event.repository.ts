import { insertSkippingConflicts } from '@lib/db/insert-skipping-conflicts';
import { Repository } from '@lib/db/repository';
import { Transaction } from '../transaction/transaction.entity';
import { TRANSACTION_COLUMNS } from '../transaction/transaction.repository';
import { PaymentEvent } from './payment-event.entity';

const EVENT_KEY = ['bank_code', 'external_event_id'];
const TRANSACTION_KEY = ['bank_code', 'transaction_code'];
/** What a new attempt of a stored event keeps of its first delivery. */
const FIRST_DELIVERY = ['id', 'bank_code', 'external_event_id', 'received_at'];

/** What applying a stored event came to, as written back onto it. */
export interface EventOutcome {
  status: string;
  flow: string;
  errorCode: string | null;
  transactionId: string | null;
}

/** A transaction the intake records, column by column (payment-event.service.ts `transactionRow`). */
export type NewTransactionRow = Record<string, unknown>;

/**
 * The payment-event intake's statements, inside its transaction: the inbox (`payment_events`, claimed with
 * `insert … on conflict do nothing`) and what applying an event writes to `transactions` (new transactions,
 * refunds and reversals of an original, which is locked). All plain rows; entities are only mapped, never loaded.
 */
export class PaymentEventRepository extends Repository {
  /** Stores the event unless (bank, external_event_id) is taken; whether it was stored. */
  async claim(event: PaymentEvent): Promise<boolean> {
    const claimed = await this.db('transaction.payment_events').insert(eventRow(event)).onConflict(EVENT_KEY).ignore().returning('id');
    return claimed.length > 0;
  }

  /** Stores the events whose (bank, external_event_id) is free, in array order, in one statement; the ids stored. */
  claimAll(events: readonly PaymentEvent[]): Promise<string[]> {
    return insertSkippingConflicts(this.db, '"transaction".payment_events', events.map(eventRow), EVENT_KEY);
  }

  /**
   * The stored event of the bank with this external id, locked for update: concurrent replays of an unapplied
   * event take turns, and each sees what the one before it wrote.
   */
  async lockFirst(bankCode: string, externalEventId: string): Promise<PaymentEvent> {
    const [first] = await this.rows('select * from "transaction".payment_events where bank_code = ? and external_event_id = ? for update', [
      bankCode,
      externalEventId,
    ]);
    return this.em.map(PaymentEvent, first);
  }

  /**
   * A new attempt of a stored, unapplied event: the row takes everything of `event` but its id, bank, external id
   * and received_at (the first delivery's).
   */
  async replaceAttempt(event: PaymentEvent): Promise<void> {
    const attempt = Object.fromEntries(Object.entries(eventRow(event)).filter(([column]) => !FIRST_DELIVERY.includes(column)));
    await this.db('transaction.payment_events').where({ id: event.id }).update(attempt);
  }

  /** The stored events of these (bank, external_event_id) keys. */
  async byKeys(keys: readonly [bankCode: string, externalEventId: string][]): Promise<PaymentEvent[]> {
    const rows = await this.db('transaction.payment_events').whereIn(EVENT_KEY, keys as [string, string][]);
    return rows.map((row: Record<string, unknown>) => this.em.map(PaymentEvent, row));
  }

  /** Marks the bank's event applied (keeping the first applied_at); null when the bank has no event with this id. */
  async markApplied(eventId: string, bankCode: string): Promise<PaymentEvent | null> {
    const [row] = await this.rows(
      `update "transaction".payment_events set applied_at = case when applied then applied_at else now() end, applied = true
        where id = ? and bank_code = ? returning *`,
      [eventId, bankCode],
    );
    return row ? this.em.map(PaymentEvent, row) : null;
  }

  /** Writes one outcome onto these events. */
  async writeOutcome(eventIds: readonly string[], outcome: EventOutcome): Promise<void> {
    await this.rows('update "transaction".payment_events set status = ?, flow = ?, error_code = ?, transaction_id = ? where id = any(?)', [
      outcome.status,
      outcome.flow,
      outcome.errorCode,
      outcome.transactionId,
      eventIds,
    ]);
  }

  /** Records a transaction unless the bank's transaction_code is taken (the unique key decides races); whether it was. */
  async insertTransaction(row: NewTransactionRow): Promise<boolean> {
    const inserted = await this.db('transaction.transactions').insert(row).onConflict(TRANSACTION_KEY).ignore().returning('id');
    return inserted.length > 0;
  }

  /** Records the transactions whose (bank, transaction_code) is free, in array order, in one statement; the ids recorded. */
  insertTransactions(rows: readonly NewTransactionRow[]): Promise<string[]> {
    return insertSkippingConflicts(this.db, '"transaction".transactions', rows, TRANSACTION_KEY);
  }

  /**
   * The bank's earliest transaction of the merchant with `column` = `value`, locked for update; `unseen` are ids
   * to pass over. Null when there is none.
   */
  async lockOriginal(
    bankCode: string,
    merchantId: string,
    column: 'transaction_code' | 'external_reference' | 'rrn',
    value: string,
    unseen: readonly string[],
  ): Promise<Transaction | null> {
    const [row] = await this.rows(
      `select ${TRANSACTION_COLUMNS} from "transaction".transactions
        where bank_code = ? and merchant_id = ? and ${column} = ?${unseen.length > 0 ? ' and id <> all(?)' : ''}
        order by transaction_at, id limit 1 for update`,
      unseen.length > 0 ? [bankCode, merchantId, value, unseen] : [bankCode, merchantId, value],
    );
    return row ? this.em.map(Transaction, row) : null;
  }

  /** Adds `amount` to the transaction's refunded amount; refunded once everything is. */
  async refund(transactionId: string, amount: number): Promise<void> {
    await this.rows(
      `update "transaction".transactions
            set refunded_amount = refunded_amount + ?,
                status = case when refunded_amount + ? = gross_amount then 'refunded' else status end,
                updated_at = now()
          where id = ?`,
      [amount, amount, transactionId],
    );
  }

  async reverse(transactionId: string): Promise<void> {
    await this.rows(`update "transaction".transactions set status = 'reversed', updated_at = now() where id = ?`, [transactionId]);
  }
}

function eventRow(event: PaymentEvent): Record<string, unknown> {
  return {
    id: event.id,
    bank_code: event.bankCode,
    external_event_id: event.externalEventId,
    event_type: event.eventType,
    // The object itself: the driver sends it as JSON, and the batch insert's JSON array nests it as jsonb.
    payload: event.payload,
    nmid: event.nmid,
    merchant_id: event.merchantId,
    outlet_id: event.outletId,
    multi_outlet: event.multiOutlet,
    terminal_id: event.terminalId,
    transaction_id: event.transactionId,
    status: event.status,
    flow: event.flow,
    error_code: event.errorCode,
    applied: event.applied,
    applied_at: event.appliedAt,
    received_at: event.receivedAt,
  };
}
