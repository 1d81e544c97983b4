import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs, ensureJob } from '@lib/jobs/job-queue';
import type { StatementDay, StatementSettlementRow, StatementTotals, StatementTransactionRow } from './statement-model';

export type StatementStatus = 'pending' | 'ready';
export type StatementFormat = 'pdf' | 'csv';

export interface StatementRow {
  id: string;
  merchant_id: string;
  outlet_id: string | null;
  /** YYYY-MM. */
  month: string;
  status: StatementStatus;
  totals: StatementTotals | null;
  pdf_bytes: number | null;
  csv_bytes: number | null;
  requested_at: Date;
  generated_at: Date | null;
}

const ROW = `id, merchant_id, outlet_id, to_char(month, 'YYYY-MM') as month, status, totals,
             octet_length(pdf) as pdf_bytes, octet_length(csv) as csv_bytes, requested_at, generated_at`;

/** `outlet_id` filter of one outlet, or none: `(?::uuid is null or outlet_id = ?::uuid)`. */
const OUTLET = `(?::uuid is null or outlet_id = ?::uuid)`;

/** Statements and the month's figures they show (docs/decisions/0242-daily-reconciliation.md). */
export class StatementRepository extends Repository {
  /** Every transaction of [from, before) of the merchant (one outlet when given), all statuses, oldest first. */
  async transactionsOf(merchantId: string, outletId: string | null, from: Date, before: Date): Promise<StatementTransactionRow[]> {
    const rows = await this.rows<Record<string, string>>(
      `select id, transaction_code, status, outlet_id, nmid, gross_amount::text, mdr_fee_amount::text,
              platform_fee::text as service_fee_amount, refunded_amount::text, settlement_status, transaction_at
         from "transaction".transactions
        where merchant_id = ?::uuid and ${OUTLET} and transaction_at >= ?::timestamptz and transaction_at < ?::timestamptz
        order by transaction_at, id`,
      [merchantId, outletId, outletId, from, before],
    );
    return rows.map((r) => {
      const gross = Number(r.gross_amount);
      const mdr = Number(r.mdr_fee_amount);
      const service = Number(r.service_fee_amount);
      return {
        id: r.id,
        transaction_code: r.transaction_code,
        status: r.status,
        outlet_id: r.outlet_id,
        nmid: r.nmid,
        gross_amount: gross,
        mdr_fee_amount: mdr,
        service_fee_amount: service,
        refunded_amount: Number(r.refunded_amount),
        net_amount: gross - mdr - service,
        settlement_status: r.settlement_status,
        transaction_at: new Date(r.transaction_at),
      };
    });
  }

  /** Success takings per local day of [from, before). */
  async dailyTakings(merchantId: string, outletId: string | null, from: Date, before: Date, zone: string): Promise<StatementDay[]> {
    const rows = await this.rows<{ day: string; count: string; gross: string }>(
      `select to_char(transaction_at at time zone ?, 'YYYY-MM-DD') as day, count(*)::text as count, sum(gross_amount)::text as gross
         from "transaction".transactions
        where merchant_id = ?::uuid and ${OUTLET} and status = 'success' and transaction_at >= ?::timestamptz and transaction_at < ?::timestamptz
        group by 1 order by 1`,
      [zone, merchantId, outletId, outletId, from, before],
    );
    return rows.map((r) => ({ day: r.day, count: Number(r.count), gross_amount: Number(r.gross) }));
  }

  /** Success transactions before `from` not settled by then, and their net (gross − MDR − service fee). */
  async openingUnsettled(merchantId: string, outletId: string | null, from: Date): Promise<{ count: number; net_amount: number }> {
    const [row] = await this.rows<{ count: string; net: string }>(
      `select count(*)::text as count, coalesce(sum(gross_amount - mdr_fee_amount - platform_fee), 0)::text as net
         from "transaction".transactions
        where merchant_id = ?::uuid and ${OUTLET} and status = 'success' and transaction_at < ?::timestamptz
          and (settled_at is null or settled_at >= ?::timestamptz)`,
      [merchantId, outletId, outletId, from, from],
    );
    return { count: Number(row.count), net_amount: Number(row.net) };
  }

  /** The merchant's successful settlements dated [firstDay, nextFirstDay), oldest first. */
  async settlementsOf(
    merchantId: string,
    outletId: string | null,
    firstDay: string,
    nextFirstDay: string,
  ): Promise<StatementSettlementRow[]> {
    const rows = await this.rows<Record<string, string>>(
      `select settlement_id, bank_code, nmid, to_char(settlement_date, 'YYYY-MM-DD') as settlement_date, gross_amount::text,
              mdr_total::text, net_amount::text, matched_count
         from "transaction".settlements
        where merchant_id = ?::uuid and ${OUTLET} and status = 'success' and settlement_date >= ?::date and settlement_date < ?::date
        order by settlement_date, completed_at, id`,
      [merchantId, outletId, outletId, firstDay, nextFirstDay],
    );
    return rows.map((r) => ({
      settlement_id: r.settlement_id,
      bank_code: r.bank_code,
      nmid: r.nmid,
      settlement_date: r.settlement_date,
      gross_amount: Number(r.gross_amount),
      mdr_total: Number(r.mdr_total),
      net_amount: Number(r.net_amount),
      matched_count: Number(r.matched_count),
    }));
  }

  /** The merchant's name as the copy of payment targets holds it (null before the merchant subgraph's job arrived). */
  async merchantName(merchantId: string): Promise<string | null> {
    const [row] = await this.rows<{ name: string | null }>(
      `select name from "transaction".payment_target_merchants where merchant_id = ?::uuid`,
      [merchantId],
    );
    return row?.name ?? null;
  }

  /** The NMIDs the outlet holds in the copy of payment targets, or took payments on. */
  async outletNmids(merchantId: string, outletId: string): Promise<string[]> {
    const rows = await this.rows<{ nmid: string }>(
      `select nmid from "transaction".payment_targets where merchant_id = ?::uuid and outlet_id = ?::uuid
       union
       select distinct nmid from "transaction".transactions where merchant_id = ?::uuid and outlet_id = ?::uuid and nmid is not null
       order by 1`,
      [merchantId, outletId, merchantId, outletId],
    );
    return rows.map((r) => r.nmid);
  }

  /** Merchants with transactions or settlements in [from, before), each with its outlets that took payments. */
  async activeInMonth(
    from: Date,
    before: Date,
    firstDay: string,
    nextFirstDay: string,
  ): Promise<{ merchant_id: string; outlet_ids: string[] }[]> {
    return this.rows(
      `select merchant_id, coalesce(array_agg(distinct outlet_id) filter (where outlet_id is not null), '{}') as outlet_ids
         from (select merchant_id, outlet_id from "transaction".transactions
                where transaction_at >= ?::timestamptz and transaction_at < ?::timestamptz
               union all
               select merchant_id, outlet_id from "transaction".settlements
                where merchant_id is not null and status = 'success' and settlement_date >= ?::date and settlement_date < ?::date) a
        group by merchant_id order by merchant_id`,
      [from, before, firstDay, nextFirstDay],
    );
  }

  /** The statement of (merchant, outlet, month), made pending (created when missing): one row per key whatever the reruns. */
  async markPending(id: string, merchantId: string, outletId: string | null, firstDay: string): Promise<StatementRow> {
    const [row] = await this.rows<StatementRow>(
      `insert into "transaction".statements (id, merchant_id, outlet_id, month, status)
       values (?::uuid, ?::uuid, ?::uuid, ?::date, 'pending')
       on conflict on constraint statements_merchant_outlet_month_key
       do update set status = 'pending', requested_at = now()
       returning ${ROW}`,
      [id, merchantId, outletId, firstDay],
    );
    return row;
  }

  /** Stores the files of (merchant, outlet, month), replacing any earlier ones: one row per key whatever the reruns. */
  async store(
    id: string,
    key: { merchantId: string; outletId: string | null; firstDay: string },
    files: { totals: StatementTotals; pdf: Buffer; csv: Buffer },
    generatedAt: Date,
  ): Promise<StatementRow> {
    const [row] = await this.rows<StatementRow>(
      `insert into "transaction".statements (id, merchant_id, outlet_id, month, status, totals, pdf, csv, generated_at)
       values (?::uuid, ?::uuid, ?::uuid, ?::date, 'ready', ?::jsonb, ?, ?, ?::timestamptz)
       on conflict on constraint statements_merchant_outlet_month_key
       do update set status = 'ready', totals = excluded.totals, pdf = excluded.pdf, csv = excluded.csv, generated_at = excluded.generated_at
       returning ${ROW}`,
      [id, key.merchantId, key.outletId, key.firstDay, JSON.stringify(files.totals), files.pdf, files.csv, generatedAt],
    );
    return row;
  }

  /** The merchant's statements, newest month first, the merchant's own before its outlets'. */
  list(merchantId: string, month: string | null): Promise<StatementRow[]> {
    return this.rows<StatementRow>(
      `select ${ROW} from "transaction".statements
        where merchant_id = ?::uuid and (?::date is null or month = ?::date)
        order by month desc, outlet_id nulls first, id`,
      [merchantId, month, month],
    );
  }

  async byId(id: string): Promise<StatementRow | null> {
    const [row] = await this.rows<StatementRow>(`select ${ROW} from "transaction".statements where id = ?::uuid`, [id]);
    return row ?? null;
  }

  async file(id: string, format: StatementFormat): Promise<Buffer | null> {
    const [row] = await this.rows<{ file: Buffer | null }>(
      `select ${format === 'pdf' ? 'pdf' : 'csv'} as file from "transaction".statements where id = ?::uuid`,
      [id],
    );
    return row?.file ?? null;
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }

  ensureJob(task: string, key: string, payload: object, runAt: Date): Promise<void> {
    return this.sqlTransaction((tx) => ensureJob(tx.db, task, key, payload, runAt));
  }
}
