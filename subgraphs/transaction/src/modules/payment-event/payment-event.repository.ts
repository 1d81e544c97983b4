import { insertSkippingConflicts } from '@lib/db/insert-skipping-conflicts';
import { Repository } from '@lib/db/repository';
import { type NewPaymentFeedRow, appendFeedSql } from '../payment-feed/payment-feed.repository';
import { Transaction } from '../transaction/transaction.entity';
import { type NewTransactionRow, insertTransactionsClaimingCodes } from '../transaction/transaction-codes';
import { TRANSACTION_COLUMNS } from '../transaction/transaction.repository';
import { PaymentEvent } from './payment-event.entity';

const EVENT_KEY = ['bank_code', 'external_event_id'];
/** The columns of an event that its outcome sets (EventOutcome). */
const OUTCOME_COLUMNS = new Set(['status', 'flow', 'error_code', 'transaction_id']);
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
export type { NewTransactionRow };

/** The stored event of a (bank, external_event_id) key: the key table names its partition (received_at). */
const EVENT_BY_KEY = `"transaction".payment_event_keys k join "transaction".payment_events e on e.id = k.event_id and e.received_at = k.received_at`;

/**
 * The payment-event intake's statements, inside its transaction: the inbox (`payment_events`, whose
 * (bank, external_event_id) is claimed in `payment_event_keys` with `insert … on conflict do nothing`) and what
 * applying an event writes to `transactions` (new transactions, refunds and reversals of an original, which is
 * locked). Both tables are partitioned by month (docs/decisions/0208-partitioned-history.md): statements name the
 * partition column where it is at hand, so they touch one partition. All plain rows; entities are only mapped.
 */
export class PaymentEventRepository extends Repository {
  /** Stores the event unless (bank, external_event_id) is taken; whether it was stored. */
  async claim(event: PaymentEvent): Promise<boolean> {
    return (await this.claimAll([event])).length > 0;
  }

  /**
   * Stores the events whose (bank, external_event_id) is free, in array order; the ids stored. The keys are claimed
   * first (of concurrent claims of one key one wins; the others wait for its commit and skip, as the unique
   * constraint of an unpartitioned table did), then the claimed events are inserted: two statements.
   */
  async claimAll(events: readonly PaymentEvent[]): Promise<string[]> {
    const claimed = new Set(
      await insertSkippingConflicts(
        this.db,
        '"transaction".payment_event_keys',
        events.map((e) => ({ bank_code: e.bankCode, external_event_id: e.externalEventId, event_id: e.id, received_at: e.receivedAt })),
        EVENT_KEY,
        'event_id',
      ),
    );
    return insertSkippingConflicts(this.db, '"transaction".payment_events', events.filter((e) => claimed.has(e.id)).map(eventRow), null);
  }

  /**
   * claimAll and insertTransactions of a batch in ONE statement (one round trip where there were four): claims the
   * keys of `events` (in array order: sort them by key), inserts the events claimed, claims the codes of the
   * `transactions` whose event was claimed (in array order: sort them by code; of one code the first claimed wins)
   * and inserts those transactions. An event whose transaction did not claim its code is stored with `lost`
   * instead of its own outcome. Returns the ids of the events stored and of the transactions created.
   * `transactions[i].id` is the `transaction_id` of its event. The guard triggers of both partitioned tables
   * (0208) run at the end of the statement and find the keys and codes the statement claimed. Prepared once per
   * connection (planning it took about a tenth of its time).
   *
   * With `feed`, the same statement also appends the rows of `feed` whose transaction it created, once all of the
   * above has run (appendFeedSql): the whole intake of such a batch is this one statement, committed on its own
   * outside a transaction (docs/decisions/0028-payment-event-and-settlement-intake.md).
   */
  async claimAndRecord(
    events: readonly PaymentEvent[],
    transactions: readonly NewTransactionRow[],
    lost: EventOutcome,
    feed?: readonly NewPaymentFeedRow[],
  ): Promise<{ stored: string[]; created: string[] }> {
    const rows = events.map(eventRow);
    const { name, sql } = claimAndRecordStatement(
      Object.keys(rows[0]),
      transactions.length > 0 ? Object.keys(transactions[0]) : ['id'],
      feed !== undefined,
    );
    const params = [JSON.stringify(rows), JSON.stringify(transactions), lost.status, lost.flow, lost.errorCode, lost.transactionId];
    if (feed) params.push(JSON.stringify(feed));
    const [result] = await this.preparedRows<{ stored: string[] | null; created: string[] | null }>(name, sql, params);
    return { stored: result.stored ?? [], created: result.created ?? [] };
  }

  /**
   * The stored event of the bank with this external id, locked for update: concurrent replays of an unapplied
   * event take turns, and each sees what the one before it wrote. Null when its key is claimed but its month is
   * archived (archivedFirst).
   */
  async lockFirst(bankCode: string, externalEventId: string): Promise<PaymentEvent | null> {
    const [first] = await this.rows(`select e.* from ${EVENT_BY_KEY} where k.bank_code = ? and k.external_event_id = ? for update of e`, [
      bankCode,
      externalEventId,
    ]);
    return first ? this.em.map(PaymentEvent, first) : null;
  }

  /**
   * The first delivery of a claimed key whose month is archived (docs/decisions/0208-partitioned-history.md): read from
   * the `archive` schema, or, when its table is no longer there, only its `id` and `receivedAt` (`status` null).
   * Null when the key is not claimed.
   */
  async archivedFirst(bankCode: string, externalEventId: string): Promise<PaymentEvent | null> {
    const [first] = await this.rows(`select * from "transaction".archived_payment_event(?, ?)`, [bankCode, externalEventId]);
    return first ? this.em.map(PaymentEvent, first) : null;
  }

  /**
   * A new attempt of a stored, unapplied event: the row takes everything of `event` but its id, bank, external id
   * and received_at (the first delivery's).
   */
  async replaceAttempt(event: PaymentEvent): Promise<void> {
    const attempt = Object.fromEntries(Object.entries(eventRow(event)).filter(([column]) => !FIRST_DELIVERY.includes(column)));
    await this.db('transaction.payment_events').where({ id: event.id }).update(attempt);
  }

  /** The stored events of these (bank, external_event_id) keys; none for a key whose month is archived (archivedFirst). */
  async byKeys(keys: readonly [bankCode: string, externalEventId: string][]): Promise<PaymentEvent[]> {
    if (keys.length === 0) return [];
    const rows = await this.rows(
      `select e.* from unnest(?::text[], ?::text[]) as q(bank_code, external_event_id)
         join ${EVENT_BY_KEY} on k.bank_code = q.bank_code and k.external_event_id = q.external_event_id`,
      [keys.map(([bank]) => bank), keys.map(([, id]) => id)],
    );
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

  /** Writes an outcome onto the event (received at `receivedAt`, as read back in milliseconds: the partitions to look in). */
  async writeOutcome(eventId: string, receivedAt: Date, outcome: EventOutcome): Promise<void> {
    await this.rows(
      'update "transaction".payment_events set status = ?, flow = ?, error_code = ?, transaction_id = ? where id = ? and received_at >= ?',
      [outcome.status, outcome.flow, outcome.errorCode, outcome.transactionId, eventId, receivedAt],
    );
  }

  /** Records a transaction unless the bank's transaction_code is taken (the claim decides races); whether it was. */
  async insertTransaction(row: NewTransactionRow): Promise<boolean> {
    return (await this.insertTransactions([row])).length > 0;
  }

  /** Records the transactions whose (bank, transaction_code) is free, in array order; the ids recorded (transaction-codes.ts). */
  insertTransactions(rows: readonly NewTransactionRow[]): Promise<string[]> {
    return insertTransactionsClaimingCodes(this.db, rows);
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
    // A code is one transaction of the bank: its key row names the partition. References and RRNs are not unique:
    // their per-partition indexes are probed month by month.
    const [row] =
      column === 'transaction_code'
        ? await this.rows(
            `select ${TRANSACTION_COLUMNS.split(', ')
              .map((c) => `t.${c}`)
              .join(', ')}
               from "transaction".transaction_codes k
               join "transaction".transactions t on t.id = k.transaction_id and t.transaction_at = k.transaction_at
              where k.bank_code = ? and k.transaction_code = ? and t.merchant_id = ?${unseen.length > 0 ? ' and t.id <> all(?)' : ''}
              for update of t`,
            unseen.length > 0 ? [bankCode, value, merchantId, unseen] : [bankCode, value, merchantId],
          )
        : await this.rows(
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

/** The claimAndRecord statements by their columns (and whether they append the feed), each prepared under a name of its own. */
const claimAndRecordStatements = new Map<string, { name: string; sql: string }>();

function claimAndRecordStatement(
  eventColumns: readonly string[],
  transactionColumns: readonly string[],
  appendsFeed: boolean,
): { name: string; sql: string } {
  const key = `${eventColumns.join()}|${transactionColumns.join()}|${appendsFeed}`;
  let statement = claimAndRecordStatements.get(key);
  if (!statement) {
    statement = {
      name: `payment_events_claim_and_record_${claimAndRecordStatements.size + 1}`,
      sql: claimAndRecordSql(eventColumns, transactionColumns, appendsFeed),
    };
    claimAndRecordStatements.set(key, statement);
  }
  return statement;
}

/**
 * PaymentEventRepository.claimAndRecord's statement: each CTE reads the one before it, so keys lock before codes; with
 * `appendsFeed`, the feed's lock waits for the transactions' insert to finish.
 */
function claimAndRecordSql(eventColumns: readonly string[], transactionColumns: readonly string[], appendsFeed: boolean): string {
  // An event that records a transaction whose code was not claimed takes the `lost` outcome.
  const outcomeOrOwn = (c: string) =>
    OUTCOME_COLUMNS.has(c) ? `case when e.transaction_id is null or c.transaction_id is not null then e.${c} else lost.${c} end` : `e.${c}`;
  return `with e as materialized (
     select r.* from jsonb_populate_recordset(null::"transaction".payment_events, ?::jsonb) with ordinality r),
   t as materialized (
     select r.* from jsonb_populate_recordset(null::"transaction".transactions, ?::jsonb) with ordinality r),
   lost as (select ?::text as status, ?::text as flow, ?::text as error_code, ?::uuid as transaction_id),
   keys as (
     insert into "transaction".payment_event_keys (bank_code, external_event_id, event_id, received_at)
     select bank_code, external_event_id, id, received_at from e order by ordinality
     on conflict (${EVENT_KEY.join(', ')}) do nothing returning event_id),
   codes as (
     insert into "transaction".transaction_codes (bank_code, transaction_code, transaction_id, transaction_at)
     select bank_code, transaction_code, id, transaction_at from t
      where id in (select e.transaction_id from e join keys on keys.event_id = e.id) order by ordinality
     on conflict (bank_code, transaction_code) do nothing returning transaction_id),
   events as (
     insert into "transaction".payment_events (${eventColumns.join(', ')})
     select ${eventColumns.map(outcomeOrOwn).join(', ')}
       from e join keys on keys.event_id = e.id cross join lost left join codes c on c.transaction_id = e.transaction_id
      order by e.ordinality
     returning id),
   inserted as (
     insert into "transaction".transactions (${transactionColumns.join(', ')})
     select ${transactionColumns.map((c) => `t.${c}`).join(', ')} from t join codes on codes.transaction_id = t.id order by t.ordinality
     returning id)${
       appendsFeed
         ? `,
   ${appendFeedSql('?::jsonb', { after: 'inserted', only: 'r.transaction_id in (select id from inserted)' })}`
         : ''
     }
   select (select array_agg(id::text) from events) as stored, (select array_agg(id::text) from inserted) as created${
     appendsFeed ? ', (select count from pushed) as pushed' : ''
   }`;
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
