import { Repository } from '@lib/db/repository';
import { INFRASTRUCTURE_ATTEMPTS, JOB_SCHEMA } from '@lib/jobs/job-queue';
import { PAYMENT_RECEIVED_TASK } from '@lib/domain/jobs/tasks';

/**
 * A row of `transaction.payment_feed` (docs/decisions/0202-live-payment-events.md): one per successful transaction,
 * and one per cancelled dynamic QRIS payment (`qris_payment.cancelled`: no transaction, bank or transaction time).
 */
export interface PaymentFeedRow {
  id: string;
  kind: 'transaction.success' | 'qris_payment.paid' | 'qris_payment.cancelled';
  merchant_id: string;
  outlet_id: string;
  terminal_id: string | null;
  transaction_id: string | null;
  transaction_code: string | null;
  reference_number: string | null;
  bank_code: string | null;
  nmid: string;
  amount: string | number;
  transaction_at: Date | null;
  qris_payment_id: string | null;
  bill_number: string | null;
  sales_order_id: string | null;
  created_at: Date;
}

export type NewPaymentFeedRow = Omit<PaymentFeedRow, 'id' | 'created_at'>;

/** The columns of a NewPaymentFeedRow. */
const NEW_ROW_COLUMNS = `kind, merchant_id, outlet_id, terminal_id, transaction_id, transaction_code, reference_number, bank_code, nmid, amount,
  transaction_at, qris_payment_id, bill_number, sales_order_id`;

const COLUMNS = `id::text as id, ${NEW_ROW_COLUMNS}, created_at`;

/**
 * An advisory lock key of its own (any constant; `hashtext` of the table name). Held from the feed insert to the
 * commit, it hands out ids in commit order.
 */
const APPEND_LOCK = `hashtext('transaction.payment_feed')`;

/**
 * The common table expressions that append feed rows (a JSON array, in array order, once per transaction id) and
 * enqueue each new row's push (`payment_received`, run by the merchant process; lib/domain/jobs/tasks.ts): `lock`, `appended`
 * (the rows inserted: replays insert none, so they enqueue nothing) and `pushed` (how many jobs). The lock is taken
 * before any id is drawn and held until the commit, so the ids of concurrent intake transactions are allocated in the
 * order they commit. `after`: a CTE that must run to its end before the lock is taken (the rest of the statement's
 * work, so the serial section is the append and the commit); `only`: a condition on the rows `r` to append.
 */
export function appendFeedSql(rowsParam: string, { after, only }: { after?: string; only?: string } = {}): string {
  return `lock as materialized (select pg_advisory_xact_lock(${APPEND_LOCK})${after ? ` from (select count(*) from ${after}) done` : ''}),
   appended as (
     insert into "transaction".payment_feed (${NEW_ROW_COLUMNS})
     select ${NEW_ROW_COLUMNS} from lock, jsonb_populate_recordset(null::"transaction".payment_feed, ${rowsParam}) with ordinality r
      ${only ? `where ${only}` : ''}
      order by r.ordinality
     on conflict (transaction_id) do nothing
     returning id, kind, merchant_id, outlet_id, transaction_id, transaction_code, amount, qris_payment_id),
   pushed as (select count(*) from ${JOB_SCHEMA}.add_jobs(array(
     select row('${PAYMENT_RECEIVED_TASK}', json_build_object('event_id', i.id::text, 'merchant_id', i.merchant_id, 'outlet_id', i.outlet_id,
                'transaction_id', i.transaction_id, 'transaction_code', i.transaction_code, 'amount', i.amount,
                'qris_payment_id', i.qris_payment_id),
                null, null, ${INFRASTRUCTURE_ATTEMPTS}, 'payment_received:' || i.id, null, null)::${JOB_SCHEMA}.job_spec
       from appended i where i.kind in ('transaction.success', 'qris_payment.paid'))))`;
}

/** The live payment feed: appended in the intake transaction (with its pushes' jobs), read by id. */
export class PaymentFeedRepository extends Repository {
  /**
   * Appends rows (once per transaction id) as the LAST statement of the caller's transaction (appendFeedSql: its lock
   * is held until the commit). The same statement enqueues each new row's push job, which therefore commits with the
   * payment or not at all (docs/decisions/0031-webhooks-and-job-queue.md). One round trip, of a statement prepared once per connection.
   */
  async append(rows: readonly NewPaymentFeedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.preparedRows('payment_feed_append', `with ${appendFeedSql('?::jsonb')} select count from pushed`, [JSON.stringify(rows)]);
  }

  /** The merchant's rows after `afterId` created within `windowSecs`, in id order, at most `limit`. */
  async after(merchantId: string, afterId: string, limit: number, windowSecs: number): Promise<PaymentFeedRow[]> {
    return this.rows<PaymentFeedRow>(
      `select ${COLUMNS} from "transaction".payment_feed
       where merchant_id = ? and id > ?::bigint and created_at > now() - make_interval(secs => ?)
       order by "transaction".payment_feed.id limit ?`,
      [merchantId, afterId, windowSecs, limit],
    );
  }

  /** Every merchant's rows after `afterId` created within `windowSecs`, in id order, at most `limit` (one read for all). */
  async afterAll(afterId: string, limit: number, windowSecs: number): Promise<PaymentFeedRow[]> {
    return this.rows<PaymentFeedRow>(
      `select ${COLUMNS} from "transaction".payment_feed
       where id > ?::bigint and created_at > now() - make_interval(secs => ?)
       order by "transaction".payment_feed.id limit ?`,
      [afterId, windowSecs, limit],
    );
  }

  /** The newest id of all rows ("0" when none). */
  async head(): Promise<string> {
    const [row] = await this.rows<{ head: string | null }>(`select max(id)::text as head from "transaction".payment_feed`);
    return row?.head ?? '0';
  }

  /** The newest id of the merchant's rows ("0" when none). */
  async headOf(merchantId: string): Promise<string> {
    const [row] = await this.rows<{ head: string | null }>(
      `select max(id)::text as head from "transaction".payment_feed where merchant_id = ?`,
      [merchantId],
    );
    return row?.head ?? '0';
  }

  /**
   * One batch of retention, in its own transaction, unless another copy is pruning (a transaction-level try-lock:
   * null then). Deletes up to `batch` feed rows older than `cutoff` — the rows before the first one created at or
   * after it, so a row never goes before an older one — and up to `batch` settled rows of the settlement outbox.
   */
  pruneBatch(cutoff: Date, batch: number): Promise<{ feed: number; settlements: number } | null> {
    return this.sqlTransaction(async (tx) => {
      const [{ locked }] = await tx.rows<{ locked: boolean }>(`select pg_try_advisory_xact_lock(${PRUNE_LOCK}) as locked`);
      if (!locked) return null;
      const feed = await tx.rows(
        `with bound as (select id from "transaction".payment_feed where created_at >= ? order by id limit 1),
              doomed as (select id from "transaction".payment_feed
                         where id < coalesce((select id from bound), 9223372036854775807) order by id limit ?)
         delete from "transaction".payment_feed f using doomed where f.id = doomed.id returning f.id`,
        [cutoff, batch],
      );
      const settlements = await tx.rows(
        `delete from "transaction".sales_order_settlements where id in (
           select id from "transaction".sales_order_settlements where settled_at < ? order by id limit ?) returning id`,
        [cutoff, batch],
      );
      return { feed: feed.length, settlements: settlements.length };
    });
  }
}

/** The pruners' lock: one copy prunes at a time. */
const PRUNE_LOCK = `hashtext('transaction.payment_feed.prune')`;
