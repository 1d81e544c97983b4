import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@lib/config/config';
import type { Principal } from '@lib/auth/principal';
import type { ReconciliationPosOrdersPayload } from '@lib/domain/jobs/tasks';
import { BadInputError, ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { JobSpec } from '@lib/jobs/job-queue';
import { type LocalTime, ZonedCalendar, addDays, nextMonthStart, nextWallClock } from '@lib/time/zoned-time';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';
import type { ReconciliationSummary } from '../statement/statement-model';
import {
  type AuditRow,
  type OutletDay,
  RECONCILIATION_OUTLETS_TASK,
  ReconciliationRepository,
  type ReconciliationDifferenceRow,
  type RunCounts,
  type RunSettings,
} from './reconciliation.repository';
import {
  RESOLUTIONS,
  type ReconciliationAuditEntryType,
  type ReconciliationDayType,
  type ReconciliationDifferenceType,
  type Resolution,
} from './reconciliation.type';

/** The transaction process's daily job that reconciles the business day before its run time; one pending at a time. */
export const RECONCILIATION_PLAN_TASK = 'reconciliation.plan';
export const RECONCILIATION_PLAN_KEY = 'reconciliation.plan';

export interface ReconciliationPlanPayload {
  /** The run time this job is for (ISO): it reconciles the Jakarta business day before that time's date. */
  scheduled_at: string;
}

/** Business days of settlements: calendar days in Asia/Jakarta (psp-api.md, docs/decisions/0028-payment-event-and-settlement-intake.md). */
const JAKARTA = new ZonedCalendar(SETTLEMENT_TIME_ZONE);
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_NOTE = 1000;

/**
 * The daily three-way reconciliation per outlet and business day (docs/decisions/0242-daily-reconciliation.md): the
 * bank's settlements, the payments behind them and the point of sale's orders paid by QRIS, every difference
 * classified and kept; operators resolve and annotate differences, audited.
 *
 * Runs are set-based (one statement for any number of outlet-days) and idempotent: a run replaces an outlet-day's
 * result, and a difference found again is the same row (its resolution and note kept).
 */
export class ReconciliationService {
  private readonly repo: ReconciliationRepository;

  /** `config`: what runs and the schedule need (a request that only reads or annotates may go without). */
  constructor(
    em: EntityManager,
    private readonly config?: Pick<Config, 'reconciliation'>,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new ReconciliationRepository(em);
  }

  private get settings(): RunSettings {
    const { staticMatchSecs, settlementDueSecs } = this.configured();
    return { staticMatchSecs, settlementDueSecs };
  }

  private get runAt(): LocalTime {
    return this.configured().runAt;
  }

  private configured(): Config['reconciliation'] {
    if (!this.config) throw new Error('the reconciliation runs with the process configuration');
    return this.config.reconciliation;
  }

  /** Every outlet of a business day (the daily run, `ops reconciliation:run`). */
  runDay(day: string): Promise<RunCounts> {
    if (!isDay(day)) throw new BadInputError('the business day must be a date, YYYY-MM-DD');
    return this.repo.runDay(day, this.settings);
  }

  /** The outlet-days of a batch job (settlements that arrived, orders that arrived after their day's run). */
  runOutletDays(items: readonly OutletDay[]): Promise<RunCounts> {
    const valid = items.filter((i) => UUID_PATTERN.test(i?.outlet_id ?? '') && isDay(i?.business_day ?? ''));
    if (valid.length === 0) return Promise.resolve({ outletDays: 0, differences: 0, dropped: 0, cleared: 0 });
    return this.repo.runOutletDays(valid, this.settings);
  }

  /** The catalog's order facts into the copy; a day already reconciled that gets an order is reconciled again. */
  async applyPosOrders(payload: ReconciliationPosOrdersPayload): Promise<{ orders: number; rerun: number }> {
    const orders = (payload.orders ?? []).filter((o) => UUID_PATTERN.test(o.sales_order_id) && UUID_PATTERN.test(o.outlet_id));
    if (orders.length === 0) return { orders: 0, rerun: 0 };
    const again = await this.repo.applyPosOrders(orders);
    await this.repo.enqueue(rerunJobs(again, this.clock()));
    return { orders: orders.length, rerun: again.length };
  }

  /** At every worker start: the next daily run is queued (an existing pending one, maybe overdue after an outage, is kept). */
  async ensureScheduled(): Promise<void> {
    const next = nextWallClock(JAKARTA, this.clock(), this.runAt);
    await this.repo.ensureJob(
      RECONCILIATION_PLAN_TASK,
      RECONCILIATION_PLAN_KEY,
      { scheduled_at: next.toISOString() } satisfies ReconciliationPlanPayload,
      next,
    );
  }

  /** One daily run (however late): the business day before the run time's date, every outlet; then the next run, queued. */
  async plan(payload: ReconciliationPlanPayload): Promise<RunCounts & { businessDay: string; next: Date }> {
    const given = new Date(payload.scheduled_at);
    const scheduled = Number.isNaN(given.getTime()) ? this.clock() : given;
    const businessDay = addDays(JAKARTA.dateOf(scheduled), -1);
    const counts = await this.runDay(businessDay);
    const next = nextWallClock(JAKARTA, new Date(Math.max(scheduled.getTime(), this.clock().getTime())), this.runAt);
    await this.repo.enqueue([
      {
        task: RECONCILIATION_PLAN_TASK,
        payload: { scheduled_at: next.toISOString() } satisfies ReconciliationPlanPayload,
        runAt: next,
        jobKey: RECONCILIATION_PLAN_KEY,
      },
    ]);
    return { ...counts, businessDay, next };
  }

  /** A merchant's reconciled outlet-days of `day`, of the outlets the reader sees (null: all) or the one asked. */
  async days(merchantId: string, day: string, outletIds: readonly string[] | null): Promise<ReconciliationDayType[]> {
    if (!isDay(day)) throw new BadInputError('businessDay must be a date, YYYY-MM-DD');
    const rows = await this.repo.days(merchantId, day, outletIds);
    if (rows.length === 0) return [];
    const differences = await this.repo.differences(
      merchantId,
      day,
      rows.map((r) => r.outlet_id),
    );
    const audit = await this.auditOf(differences.map((d) => d.id));
    const byOutlet = new Map<string, ReconciliationDifferenceType[]>();
    for (const d of differences) {
      const list = byOutlet.get(d.outlet_id) ?? [];
      list.push(differenceOf(d, audit.get(d.id)));
      byOutlet.set(d.outlet_id, list);
    }
    return rows.map((r) => {
      const list = byOutlet.get(r.outlet_id) ?? [];
      return {
        outletId: r.outlet_id,
        businessDay: r.business_day,
        settlementCount: r.settlement_count,
        settlementGrossAmount: Number(r.settlement_gross_amount),
        settlementMdrAmount: Number(r.settlement_mdr_amount),
        settlementNetAmount: Number(r.settlement_net_amount),
        paymentCount: r.payment_count,
        paymentGrossAmount: Number(r.payment_gross_amount),
        paymentMdrFeeAmount: Number(r.payment_mdr_fee_amount),
        settledPaymentCount: r.settled_payment_count,
        settledGrossAmount: Number(r.settled_gross_amount),
        qrisOrderCount: r.qris_order_count,
        qrisOrderAmount: Number(r.qris_order_amount),
        matchedOrderCount: r.matched_order_count,
        differenceCount: r.difference_count,
        openDifferenceCount: list.filter((d) => d.clearedAt === null && d.resolution === 'open').length,
        status: r.difference_count === 0 ? 'reconciled' : 'differences',
        reconciledAt: new Date(r.reconciled_at),
        differences: list,
      };
    });
  }

  /**
   * The statement's reconciliation section (a `ReconciliationProvider`): the month's differences still standing, open
   * and resolved, by class; null when no day of the month was reconciled.
   */
  async summaryOf(merchantId: string, outletId: string | null, month: string): Promise<ReconciliationSummary | null> {
    const from = `${month}-01`;
    const { days, byClass } = await this.repo.monthSummary(merchantId, outletId, from, nextMonthStart(from));
    if (days === 0) return null;
    const summary: ReconciliationSummary = { open: 0, resolved: 0, byClass: {} };
    for (const row of byClass) {
      if (row.resolution === 'resolved') summary.resolved += row.n;
      else summary.open += row.n;
      summary.byClass[row.class] = (summary.byClass[row.class] ?? 0) + row.n;
    }
    return summary;
  }

  /**
   * An operator resolves, reopens or annotates a difference: the change and its audit row commit together, under the
   * difference's row lock (concurrent changes take turns). The same change again writes nothing more.
   */
  async annotate(
    principal: Principal,
    input: { differenceId: string; resolution?: string | null; note?: string | null },
  ): Promise<ReconciliationDifferenceType> {
    if (principal.kind !== 'operator') throw new ForbiddenError('only operators resolve or annotate reconciliation differences');
    if (!UUID_PATTERN.test(input.differenceId)) throw new BadInputError('differenceId must be a UUID');
    if (input.resolution != null && !(RESOLUTIONS as readonly string[]).includes(input.resolution))
      throw new BadInputError(`resolution must be one of ${RESOLUTIONS.join(', ')}`);
    const note = input.note == null ? undefined : input.note.trim();
    if (note !== undefined && note.length > MAX_NOTE) throw new BadInputError(`note must be at most ${MAX_NOTE} characters`);
    if (input.resolution == null && note === undefined) throw new BadInputError('give a resolution, a note or both');
    return this.repo.sqlTransaction(async (tx) => {
      const answer = async (row: ReconciliationDifferenceRow) => differenceOf(row, (await tx.audit([row.id])).map(auditEntryOf));
      const current = await tx.lockDifference(input.differenceId.toLowerCase());
      if (!current) throw new NotFoundError('no such reconciliation difference');
      const resolution = (input.resolution ?? current.resolution) as Resolution;
      const nextNote = note === undefined ? current.note : note === '' ? null : note;
      if (resolution === current.resolution && nextNote === current.note) return answer(current);
      const action = resolution === current.resolution ? 'annotated' : resolution === 'resolved' ? 'resolved' : 'reopened';
      const changed = await tx.annotate(current, {
        resolution,
        note: nextNote,
        action,
        actor: `operator:${principal.operatorId}`,
        auditId: uuidv7(),
      });
      return answer(changed);
    });
  }

  /** The audit of the given differences, by difference. */
  private async auditOf(differenceIds: readonly string[]): Promise<Map<string, ReconciliationAuditEntryType[]>> {
    const byDifference = new Map<string, ReconciliationAuditEntryType[]>();
    if (differenceIds.length === 0) return byDifference;
    for (const row of await this.repo.audit(differenceIds)) {
      byDifference.set(row.difference_id, [...(byDifference.get(row.difference_id) ?? []), auditEntryOf(row)]);
    }
    return byDifference;
  }
}

function auditEntryOf(row: AuditRow): ReconciliationAuditEntryType {
  return { action: row.action, resolution: row.resolution, note: row.note, actor: row.actor, at: new Date(row.at) };
}

/** A timestamptz as the driver hands it (text), or null. */
function instant(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

function isDay(value: string): boolean {
  return DAY_PATTERN.test(value) && !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime());
}

/** One batch job per business day, merged with a pending one of the same key (graphile-worker batch jobs). */
export function rerunJobs(items: readonly OutletDay[], now: Date): JobSpec[] {
  const byDay = new Map<string, OutletDay[]>();
  for (const item of items) byDay.set(item.business_day, [...(byDay.get(item.business_day) ?? []), item]);
  return [...byDay].map(([day, outletDays]) => ({
    task: RECONCILIATION_OUTLETS_TASK,
    payload: outletDays,
    runAt: new Date(now.getTime() + 2000),
    jobKey: `reconciliation.outlets:${day}:orders`,
  }));
}

function differenceOf(d: ReconciliationDifferenceRow, audit: ReconciliationAuditEntryType[] = []): ReconciliationDifferenceType {
  const expected = d.expected_amount === null ? null : Number(d.expected_amount);
  const reported = d.reported_amount === null ? null : Number(d.reported_amount);
  return {
    id: d.id,
    outletId: d.outlet_id,
    class: d.class,
    subject: d.subject,
    transactionId: d.transaction_id,
    settlementRef: d.settlement_ref,
    salesOrderId: d.sales_order_id,
    expectedAmount: expected,
    reportedAmount: reported,
    differenceAmount: expected === null || reported === null ? null : reported - expected,
    detail: JSON.stringify(d.detail),
    resolution: d.resolution,
    note: d.note,
    resolvedAt: instant(d.resolved_at),
    resolvedBy: d.resolved_by,
    firstFoundAt: new Date(d.first_found_at),
    lastFoundAt: new Date(d.last_found_at),
    clearedAt: instant(d.cleared_at),
    audit,
  };
}
