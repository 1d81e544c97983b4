import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '@lib/auth/principal';
import { assertUserMay } from '@lib/domain/access/user-scope';
import { STATEMENT_READY_TASK, type StatementReadyPayload } from '@lib/domain/jobs/tasks';
import { BadInputError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { JobSpec } from '@lib/jobs/job-queue';
import { addDays } from '@lib/time/zoned-time';
import { type LocalTime, nextMonthlyRun } from './statement-schedule';
import { TransactionPeriodService } from '../transaction/transaction.service';
import { STATEMENT_CALENDAR, monthBounds, monthOf, previousMonth, requestableMonth } from './statement-month';
import { type ReconciliationProvider, type StatementModel, totalsOf } from './statement-model';
import { renderStatementCsv } from './statement-csv';
import { renderStatementPdf } from './statement-pdf';
import { type StatementFormat, StatementRepository, type StatementRow } from './statement.repository';

/** One statement to generate (the transaction process's job). */
export const STATEMENT_GENERATE_TASK = 'statement.generate';
/** The monthly run: the past month's statements of every merchant that had activity; one pending at a time (its key). */
export const STATEMENT_PLAN_TASK = 'statement.plan';
export const STATEMENT_PLAN_KEY = 'statement.plan';

export interface StatementGeneratePayload {
  merchant_id: string;
  outlet_id: string | null;
  /** YYYY-MM. */
  month: string;
}

export interface StatementPlanPayload {
  /** The run's time (ISO): the past month is the one before the month it falls in. */
  scheduled_at: string;
}

export interface StatementFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

const CONTENT_TYPES: Record<StatementFormat, string> = { pdf: 'application/pdf', csv: 'text/csv; charset=utf-8' };

/**
 * Monthly statements (issue 50 §4; docs/decisions/0242-daily-reconciliation.md): per merchant, and per outlet for
 * merchants whose month had payments at two or more outlets, a PDF and a CSV of the month's opening figure, every
 * transaction and refund, fees, settlements, net and the reconciliation result. Generated on the job queue after each
 * month (the monthly plan) and on the owner's request, stored in `transaction.statements` (one row per merchant,
 * outlet and month: a rerun replaces its files), read by owners only; each generation enqueues the merchant process's
 * email to the owners.
 */
export class StatementService {
  private readonly repo: StatementRepository;
  private readonly period: TransactionPeriodService;

  constructor(
    em: EntityManager,
    private readonly reconciliation: ReconciliationProvider,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new StatementRepository(em);
    this.period = new TransactionPeriodService(em);
  }

  /** The owner's request: the statement made pending and its generation queued, together; a repeat replaces the queued job. */
  async request(principal: Principal, month: string, outletId: string | null): Promise<StatementRow> {
    const scope = assertUserMay(principal, 'corporate');
    if (!scope) throw new BadInputError('only an owner acting for a merchant asks for statements');
    requestableMonth(month, this.clock());
    const outlet = outletId?.toLowerCase() ?? null;
    if (outlet !== null && (!UUID_PATTERN.test(outlet) || (await this.repo.outletNmids(scope.merchantId, outlet)).length === 0))
      throw new NotFoundError('no such outlet of the merchant');
    const payload: StatementGeneratePayload = { merchant_id: scope.merchantId, outlet_id: outlet, month };
    return this.repo.sqlTransaction(async (tx) => {
      const row = await tx.markPending(uuidv7(), scope.merchantId, outlet, `${month}-01`);
      await tx.enqueue([generateJob(payload)]);
      return row;
    });
  }

  /** The owner's merchant's statements (one month when given), newest first. */
  async list(principal: Principal, merchantId: string, month: string | null): Promise<StatementRow[]> {
    assertUserMay(principal, 'corporate', { merchantId });
    if (month !== null) requestableMonth(month, this.clock());
    return this.repo.list(merchantId.toLowerCase(), month === null ? null : `${month}-01`);
  }

  /** A generated file of a statement of the owner's merchant; NOT_FOUND for another merchant's or one not generated yet. */
  async file(principal: Principal, id: string, format: StatementFormat): Promise<StatementFile> {
    const scope = assertUserMay(principal, 'corporate');
    const row = UUID_PATTERN.test(id) ? await this.repo.byId(id) : null;
    if (!row || (scope && row.merchant_id !== scope.merchantId)) throw new NotFoundError('no such statement');
    const content = await this.repo.file(row.id, format);
    if (!content) throw new NotFoundError('the statement is not generated yet');
    const who = row.outlet_id ? `-outlet-${row.outlet_id.slice(0, 8)}` : '';
    return { filename: `laporan-${row.month}${who}.${format}`, contentType: CONTENT_TYPES[format], content };
  }

  /** The job: the month's figures read, both files rendered and stored (replacing earlier ones) with the owners' email queued. */
  async generate(payload: StatementGeneratePayload): Promise<StatementRow | null> {
    if (!UUID_PATTERN.test(payload.merchant_id) || (payload.outlet_id !== null && !UUID_PATTERN.test(payload.outlet_id))) return null;
    const model = await this.modelOf(payload.merchant_id, payload.outlet_id, payload.month);
    const [pdf, csv] = [await renderStatementPdf(model), renderStatementCsv(model)];
    const totals = totalsOf(model);
    return this.repo.sqlTransaction(async (tx) => {
      const row = await tx.store(
        uuidv7(),
        { merchantId: payload.merchant_id, outletId: payload.outlet_id, firstDay: `${payload.month}-01` },
        { totals, pdf, csv },
        model.generatedAt,
      );
      await tx.enqueue([
        {
          task: STATEMENT_READY_TASK,
          payload: {
            statement_id: row.id,
            merchant_id: row.merchant_id,
            outlet_id: row.outlet_id,
            month: row.month,
            transaction_count: totals.transaction_count,
            gross_amount: totals.gross_amount,
            net_amount: totals.net_amount,
          } satisfies StatementReadyPayload,
          jobKey: `statement.ready:${row.id}`,
        },
      ]);
      return row;
    });
  }

  /** Everything the statement of (merchant, outlet, month) shows. */
  async modelOf(merchantId: string, outletId: string | null, month: string): Promise<StatementModel> {
    const m = monthBounds(month);
    const visibility = outletId ? { outletIds: [outletId], terminalId: null } : null;
    const [name, nmids, opening, summary, transactions, daily, settlementRows, reconciliation] = await Promise.all([
      this.repo.merchantName(merchantId),
      outletId ? this.repo.outletNmids(merchantId, outletId) : Promise.resolve([]),
      this.repo.openingUnsettled(merchantId, outletId, m.start),
      this.period.summaryOfMerchant(merchantId, m.start, m.end, visibility),
      this.repo.transactionsOf(merchantId, outletId, m.start, m.end),
      this.repo.dailyTakings(merchantId, outletId, m.start, m.end, STATEMENT_CALENDAR.zone),
      this.repo.settlementsOf(merchantId, outletId, m.firstDay, m.nextFirstDay),
      this.reconciliation.summaryOf(merchantId, outletId, month),
    ]);
    const byDay = new Map(daily.map((d) => [d.day, d]));
    const refunded = transactions.filter((t) => t.refunded_amount > 0);
    const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((n, r) => n + of(r), 0);
    return {
      merchant: { id: merchantId, name },
      outlet: outletId ? { id: outletId, nmids } : null,
      month,
      firstDay: m.firstDay,
      lastDay: addDays(m.nextFirstDay, -1),
      generatedAt: this.clock(),
      opening,
      summary,
      refunds: { count: refunded.length, amount: sum(refunded, (t) => t.refunded_amount) },
      settlements: {
        count: settlementRows.length,
        gross_amount: sum(settlementRows, (s) => s.gross_amount),
        mdr_amount: sum(settlementRows, (s) => s.mdr_total),
        net_amount: sum(settlementRows, (s) => s.net_amount),
        rows: settlementRows,
      },
      daily: m.days.map((day) => byDay.get(day) ?? { day, count: 0, gross_amount: 0 }),
      transactions,
      reconciliation,
    };
  }

  /** At every worker start: the next monthly run exists (a pending one, maybe overdue after an outage, is kept). */
  async ensureScheduled(runAt: LocalTime): Promise<void> {
    const next = nextMonthlyRun(this.clock(), runAt);
    await this.repo.ensureJob(
      STATEMENT_PLAN_TASK,
      STATEMENT_PLAN_KEY,
      { scheduled_at: next.toISOString() } satisfies StatementPlanPayload,
      next,
    );
  }

  /**
   * The monthly run: one generation job per merchant with transactions or settlements in the past month, and one per
   * outlet of a merchant whose month had payments at two or more outlets (keyed, so a rerun replaces pending ones); in
   * the same transaction, the next run.
   */
  async plan(payload: StatementPlanPayload, runAt: LocalTime): Promise<{ month: string; statements: number; next: Date }> {
    const given = new Date(payload.scheduled_at);
    const scheduled = Number.isNaN(given.getTime()) ? this.clock() : given;
    const month = previousMonth(monthOf(scheduled));
    const m = monthBounds(month);
    const next = nextMonthlyRun(new Date(Math.max(scheduled.getTime(), this.clock().getTime())), runAt);
    const jobs: JobSpec[] = [];
    for (const merchant of await this.repo.activeInMonth(m.start, m.end, m.firstDay, m.nextFirstDay)) {
      jobs.push(generateJob({ merchant_id: merchant.merchant_id, outlet_id: null, month }));
      if (merchant.outlet_ids.length >= 2)
        for (const outletId of merchant.outlet_ids)
          jobs.push(generateJob({ merchant_id: merchant.merchant_id, outlet_id: outletId, month }));
    }
    const statements = jobs.length;
    jobs.push({
      task: STATEMENT_PLAN_TASK,
      payload: { scheduled_at: next.toISOString() } satisfies StatementPlanPayload,
      runAt: next,
      jobKey: STATEMENT_PLAN_KEY,
    });
    await this.repo.sqlTransaction((tx) => tx.enqueue(jobs));
    return { month, statements, next };
  }
}

function generateJob(payload: StatementGeneratePayload): JobSpec {
  return {
    task: STATEMENT_GENERATE_TASK,
    payload,
    jobKey: `statement:${payload.merchant_id}:${payload.outlet_id ?? 'all'}:${payload.month}`,
  };
}
