import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';

/** Sales of one payment method in a close: orders that carry it and the sum of its payments (whole rupiah). */
export interface MethodFigure {
  method: string;
  order_count: number;
  amount: number;
}

/** Sales of one product category in a close: the lines' quantities and line totals (null id: no category). */
export interface CategoryFigure {
  category_id: string | null;
  category_name: string | null;
  quantity: number;
  amount: number;
}

/** What a close computes from the outlet's sales orders in its window. */
export interface TillFigures {
  order_count: number;
  sales_amount: number;
  change_amount: number;
  cash_amount: number;
  qris_matched_amount: number;
  qris_matched_count: number;
  qris_unconfirmed_amount: number;
  void_count: number;
  void_amount: number;
  sales_by_method: MethodFigure[];
  sales_by_category: CategoryFigure[];
}

/** A close as stored (`catalog.till_closes`; bigint columns as text, timestamps as the driver gives them, the jsonb columns parsed). */
export interface TillCloseRow {
  id: string;
  merchant_id: string;
  outlet_id: string;
  kind: 'day' | 'shift';
  business_day: string | null;
  cashier_user_id: string | null;
  cashier_name: string | null;
  period_start: Date | string;
  period_end: Date | string;
  opening_float: string;
  expected_cash: string;
  counted_cash: string;
  cash_difference: string;
  order_count: number;
  sales_amount: string;
  change_amount: string;
  qris_matched_amount: string;
  qris_matched_count: number;
  qris_unconfirmed_amount: string;
  sales_by_method: MethodFigure[];
  sales_by_category: CategoryFigure[];
  void_count: number;
  void_amount: string;
  note: string | null;
  closed_by: string;
  idempotency_key: string | null;
  request_hash: string;
  created_at: Date | string;
}

export interface TillCloseListQuery {
  outletId: string | null;
  from: Date | null;
  before: Date | null;
  limit: number;
  offset: number;
}

/** Orders that count as sales (voided ones are voids; refunded ones neither). */
const SALE = `o.status in ('completed', 'open')`;

const COLUMNS = `id, merchant_id, outlet_id, kind, to_char(business_day, 'YYYY-MM-DD') as business_day, cashier_user_id, cashier_name,
  period_start, period_end, opening_float, expected_cash, counted_cash, cash_difference, order_count, sales_amount, change_amount,
  qris_matched_amount, qris_matched_count, qris_unconfirmed_amount, sales_by_method, sales_by_category, void_count, void_amount, note,
  closed_by, idempotency_key, request_hash, created_at`;

/** Till closes (`catalog.till_closes`) and the figures of the merchant's sales orders they are made of. */
export class TillCloseRepository extends Repository {
  /** Serialises the merchant's closes (inside `sqlTransaction`): the day's and shifts' conflicts and key replays are decided under it. */
  async lockMerchant(merchantId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('catalog.till_close:' || ?, 0))`, [merchantId]);
  }

  async byIdempotencyKey(merchantId: string, key: string): Promise<TillCloseRow | undefined> {
    const [row] = await this.rows<TillCloseRow>(
      `select ${COLUMNS} from catalog.till_closes where merchant_id = ? and idempotency_key = ?`,
      [merchantId, key],
    );
    return row;
  }

  async byId(merchantId: string, id: string): Promise<TillCloseRow | undefined> {
    const [row] = await this.rows<TillCloseRow>(`select ${COLUMNS} from catalog.till_closes where merchant_id = ? and id = ?`, [
      merchantId,
      id,
    ]);
    return row;
  }

  /** The day close of the outlet's business day, if any. */
  async dayClose(merchantId: string, outletId: string, businessDay: string): Promise<TillCloseRow | undefined> {
    const [row] = await this.rows<TillCloseRow>(
      `select ${COLUMNS} from catalog.till_closes where merchant_id = ? and outlet_id = ? and kind = 'day' and business_day = ?::date`,
      [merchantId, outletId, businessDay],
    );
    return row;
  }

  /**
   * A shift close of the same cashier at the outlet whose window overlaps [start, end), if any: the same app user, or
   * (on the service surface, no user) the same name.
   */
  async overlappingShift(
    merchantId: string,
    outletId: string,
    cashier: { userId: string | null; name: string | null },
    start: Date,
    end: Date,
  ): Promise<TillCloseRow | undefined> {
    const [row] = await this.rows<TillCloseRow>(
      `select ${COLUMNS} from catalog.till_closes
        where merchant_id = ? and outlet_id = ? and kind = 'shift'
          and case when ?::uuid is null then cashier_user_id is null and cashier_name is not distinct from ? else cashier_user_id = ?::uuid end
          and period_start < ? and period_end > ?
        limit 1`,
      [merchantId, outletId, cashier.userId, cashier.name, cashier.userId, end, start],
    );
    return row;
  }

  /**
   * The figures of the outlet's sales orders transacted in [start, end), in one statement: sales (completed and open
   * orders), voids, change given, payments by method (cash; QRIS matched by the platform — payment rows the QRIS
   * settlement wrote, with their QRIS payment — and QRIS the device recorded alone), line totals by product category.
   */
  async figures(merchantId: string, outletId: string, start: Date, end: Date): Promise<TillFigures> {
    const [row] = await this.rows<{ figures: TillFigures }>(
      `with o as (
         select id, status, total_amount, change_amount from catalog.sales_orders
          where merchant_id = ? and outlet_id = ? and transacted_at >= ? and transacted_at < ?
       ), p as (
         select p.* from catalog.sales_order_payments p join o on o.id = p.sales_order_id where ${SALE}
       )
       select json_build_object(
         'order_count', (select count(*) from o where ${SALE}),
         'sales_amount', (select coalesce(sum(total_amount), 0) from o where ${SALE}),
         'change_amount', (select coalesce(sum(change_amount), 0) from o where ${SALE}),
         'cash_amount', (select coalesce(sum(amount), 0) from p where lower(method) = 'cash'),
         'qris_matched_amount', (select coalesce(sum(amount), 0) from p where qris_payment_id is not null),
         'qris_matched_count', (select count(*) from p where qris_payment_id is not null),
         'qris_unconfirmed_amount', (select coalesce(sum(amount), 0) from p where lower(method) = 'qris' and qris_payment_id is null),
         'void_count', (select count(*) from o where o.status = 'voided'),
         'void_amount', (select coalesce(sum(total_amount), 0) from o where o.status = 'voided'),
         'sales_by_method', (
           select coalesce(json_agg(m order by m.amount desc, m.method), '[]') from (
             select method, count(distinct sales_order_id) as order_count, sum(amount) as amount from p group by method
           ) m),
         'sales_by_category', (
           select coalesce(json_agg(c order by c.amount desc, c.category_name nulls last), '[]') from (
             select cat.id as category_id, cat.name as category_name, sum(i.quantity) as quantity, sum(i.line_total_amount) as amount
               from o join catalog.sales_order_items i on i.sales_order_id = o.id
               left join catalog.variants v on v.id = i.variant_id
               left join catalog.products pr on pr.id = v.product_id
               left join catalog.categories cat on cat.id = pr.category_id
              where ${SALE}
              group by cat.id, cat.name
           ) c)
       ) as figures`,
      [merchantId, outletId, start, end],
    );
    return row.figures;
  }

  async insert(row: Omit<TillCloseRow, 'business_day'> & { business_day: string | null }): Promise<TillCloseRow> {
    const [inserted] = await this.rows<TillCloseRow>(
      `insert into catalog.till_closes (id, merchant_id, outlet_id, kind, business_day, cashier_user_id, cashier_name, period_start,
         period_end, opening_float, expected_cash, counted_cash, cash_difference, order_count, sales_amount, change_amount,
         qris_matched_amount, qris_matched_count, qris_unconfirmed_amount, sales_by_method, sales_by_category, void_count, void_amount,
         note, closed_by, idempotency_key, request_hash, created_at)
       values (?, ?, ?, ?, ?::date, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)
       returning ${COLUMNS}`,
      [
        row.id,
        row.merchant_id,
        row.outlet_id,
        row.kind,
        row.business_day,
        row.cashier_user_id,
        row.cashier_name,
        row.period_start,
        row.period_end,
        row.opening_float,
        row.expected_cash,
        row.counted_cash,
        row.cash_difference,
        row.order_count,
        row.sales_amount,
        row.change_amount,
        row.qris_matched_amount,
        row.qris_matched_count,
        row.qris_unconfirmed_amount,
        JSON.stringify(row.sales_by_method),
        JSON.stringify(row.sales_by_category),
        row.void_count,
        row.void_amount,
        row.note,
        row.closed_by,
        row.idempotency_key,
        row.request_hash,
        row.created_at,
      ],
    );
    return inserted;
  }

  /** The merchant's closes, newest window end first (then id), optionally of one outlet or of outlets among `outletIds`. */
  list(merchantId: string, outletIds: string[] | null, q: TillCloseListQuery): Promise<TillCloseRow[]> {
    const conditions: [string, unknown][] = [['merchant_id = ?', merchantId]];
    if (q.outletId != null) conditions.push(['outlet_id = ?', q.outletId]);
    if (outletIds != null) conditions.push(['outlet_id = any(?::uuid[])', outletIds]);
    if (q.from) conditions.push(['period_end > ?', q.from]);
    if (q.before) conditions.push(['period_start < ?', q.before]);
    return this.rows<TillCloseRow>(
      `select ${COLUMNS} from catalog.till_closes where ${conditions.map(([c]) => c).join(' and ')}
        order by period_end desc, id desc limit ? offset ?`,
      [...conditions.map(([, v]) => v), q.limit, q.offset],
    );
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}
