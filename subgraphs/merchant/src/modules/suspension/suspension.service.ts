import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import type { SecretBox } from '@lib/crypto/secret-box';
import { SUSPENSION_ACTIVITY_TASK, type SuspensionActivityPayload } from '@lib/domain/jobs/tasks';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { JobSpec } from '@lib/jobs/job-queue';
import { BUSINESS_CALENDAR, type LocalTime, nextSendTime } from '../daily-summary/daily-summary-schedule';
import { DailySummaryRepository } from '../daily-summary/daily-summary.repository';
import type { AutomaticSuspensionReason, MerchantLifecycleService } from '../merchant/merchant-lifecycle.service';
import { languageOf, messageText } from '../notification/message-catalogue';
import type { NotificationService } from '../notification/notification.service';
import { type SuspensionDueRow, SuspensionRepository } from './suspension.repository';

/** The merchant process's daily run of automatic suspensions; one pending at a time (its job key). */
export const SUSPENSION_PLAN_TASK = 'suspension.plan';
export const SUSPENSION_PLAN_KEY = 'suspension.plan';
/** Merchants per `suspension.activity` job (one statement in the transaction process each). */
const ACTIVITY_BATCH = 500;
const DAY_MS = 86_400_000;

export interface SuspensionPlanPayload {
  /** The run time this job is for (ISO). */
  scheduled_at: string;
}

export interface HandledCounts {
  warned: number;
  suspended: number;
}

export type PlanOutcome = HandledCounts & { kycDue: number; inactivityCandidates: number; next: Date };

/**
 * Automatic suspension (psp-api.md §3, §6: `active` → `suspended` for `kyc_expired` and `inactivity`;
 * docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md "Automatic suspension").
 *
 * Once a day, at SUSPENSION_RUN_AT (Asia/Makassar), a `suspension.plan` job:
 * - KYC: every active live merchant whose KYC expires within SUSPENSION_WARNING_DAYS is warned (once per due day),
 *   and one whose KYC has expired is suspended once that warning is SUSPENSION_WARNING_DAYS old;
 * - inactivity: names the merchants whose window (SUSPENSION_INACTIVITY_MONTHS from the first activation, the last
 *   reactivation or the last successful transaction known) ends within the warning days to the transaction process,
 *   whose answer (`suspension.inactivity`) is judged here the same way;
 * - queues the next day's run in the same transaction as its jobs; every merchant worker makes sure of the chain at start.
 * A suspension goes through MerchantLifecycleService under the merchant's row lock (its webhook in the same commit), and
 * only when the reason still holds there: runs of any number of copies, re-runs and restarts suspend and announce once.
 */
export class SuspensionService {
  private readonly repo: SuspensionRepository;
  private readonly runAt: LocalTime;
  private readonly months: number;
  private readonly warningDays: number;

  constructor(
    em: EntityManager,
    config: Config,
    private readonly lifecycle: MerchantLifecycleService,
    private readonly notifications: NotificationService,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new SuspensionRepository(em);
    this.runAt = config.suspension.runAt;
    this.months = config.suspension.inactivityMonths;
    this.warningDays = config.suspension.warningDays;
  }

  /** At every worker start: the next run is queued (an existing pending one, maybe overdue after an outage, is kept). */
  async ensureScheduled(): Promise<void> {
    const next = nextSendTime(this.clock(), this.runAt);
    await this.repo
      .peer(DailySummaryRepository)
      .ensureJob(SUSPENSION_PLAN_TASK, SUSPENSION_PLAN_KEY, { scheduled_at: next.toISOString() } satisfies SuspensionPlanPayload, next);
  }

  /** One day's run (however late: what is due is judged at the time it runs). */
  async plan(payload: SuspensionPlanPayload, box: SecretBox): Promise<PlanOutcome> {
    const now = this.clock();
    const until = this.warnFrom(now);
    const counts: HandledCounts = { warned: 0, suspended: 0 };
    const kycDue = await this.repo.due('kyc_expired', this.months, until);
    for (const row of kycDue) await this.handle('kyc_expired', row.merchant_id, new Date(row.due_at), now, box, counts);
    const candidates = await this.repo.due('inactivity', this.months, until);
    const runAt = Number.isNaN(new Date(payload.scheduled_at).getTime()) ? now.toISOString() : payload.scheduled_at;
    const jobs: JobSpec[] = [];
    for (let i = 0; i < candidates.length; i += ACTIVITY_BATCH) {
      jobs.push({
        task: SUSPENSION_ACTIVITY_TASK,
        payload: {
          run_at: runAt,
          merchants: candidates.slice(i, i + ACTIVITY_BATCH).map((c) => ({ merchant_id: c.merchant_id })),
        } satisfies SuspensionActivityPayload,
        jobKey: `suspension.activity:${runAt}:${i / ACTIVITY_BATCH}`,
      });
    }
    const next = nextSendTime(now, this.runAt);
    jobs.push({
      task: SUSPENSION_PLAN_TASK,
      payload: { scheduled_at: next.toISOString() } satisfies SuspensionPlanPayload,
      runAt: next,
      jobKey: SUSPENSION_PLAN_KEY,
    });
    await this.repo.sqlTransaction((tx) => tx.enqueue(jobs));
    return { ...counts, kycDue: kycDue.length, inactivityCandidates: candidates.length, next };
  }

  /**
   * The transaction process's answer: the last successful transactions are kept (the copy operators list), then each
   * merchant whose inactivity window ends within the warning days is warned, and suspended when it has ended.
   */
  async inactivity(payload: SuspensionActivityPayload, box: SecretBox): Promise<HandledCounts> {
    const now = this.clock();
    const answered = payload.merchants
      .filter((m) => UUID_PATTERN.test(m.merchant_id))
      .map((m) => ({ merchant_id: m.merchant_id, last_success_at: validInstant(m.last_success_at) }));
    await this.repo.recordActivity(answered, now);
    const counts: HandledCounts = { warned: 0, suspended: 0 };
    if (answered.length === 0) return counts;
    const due = await this.repo.due(
      'inactivity',
      this.months,
      this.warnFrom(now),
      answered.map((m) => m.merchant_id),
    );
    for (const row of due) await this.handle('inactivity', row.merchant_id, new Date(row.due_at), now, box, counts);
    return counts;
  }

  /** Operators' list of who is due within `withinDays` (default: the warning days), overdue ones included. */
  async listDue(input: { withinDays?: number | null; limit?: number | null } = {}): Promise<SuspensionDueRow[]> {
    const withinDays = input.withinDays ?? this.warningDays;
    const limit = input.limit ?? 100;
    if (!Number.isInteger(withinDays) || withinDays < 0 || withinDays > 366) throw new BadInputError('withinDays must be 0 to 366');
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new BadInputError('first must be 1 to 500');
    const now = this.clock();
    const rows = await this.repo.list({
      months: this.months,
      warningDays: this.warningDays,
      now,
      until: new Date(now.getTime() + withinDays * DAY_MS),
      limit,
    });
    return rows.map((r) => ({ ...r, ...dates(r) }));
  }

  /** A due time within the warning days: the warning (once per due day), then the suspension when it is time. */
  private async handle(
    reason: AutomaticSuspensionReason,
    merchantId: string,
    dueAt: Date,
    now: Date,
    box: SecretBox,
    counts: HandledCounts,
  ): Promise<void> {
    const warnedAt = await this.warn(reason, merchantId, dueAt, now, box, counts);
    const suspendsAt = Math.max(dueAt.getTime(), warnedAt.getTime() + this.warningDays * DAY_MS);
    if (suspendsAt > now.getTime()) return;
    const outcome = await this.lifecycle.suspendIfDue(merchantId, reason, (tx, merchant, at) =>
      tx.peer(SuspensionRepository).stillDue(merchant.id, reason, this.months, this.warningDays, at),
    );
    if (outcome) counts.suspended += 1;
  }

  /**
   * The warning of (merchant, reason, due day), once: the row and the pushes to every live owner's devices commit
   * together. It names the day the suspension takes effect: the due day, or the warning days from now when later.
   * Answers when the warning was given (now, or by an earlier run).
   */
  private async warn(
    reason: AutomaticSuspensionReason,
    merchantId: string,
    dueAt: Date,
    now: Date,
    box: SecretBox,
    counts: HandledCounts,
  ): Promise<Date> {
    return this.repo.sqlTransaction(async (tx) => {
      const { claimed, warnedAt } = await tx.claimWarning(merchantId, reason, dueAt, now);
      if (!claimed) return warnedAt;
      counts.warned += 1;
      const suspendsAt = new Date(Math.max(dueAt.getTime(), now.getTime() + this.warningDays * DAY_MS));
      const suspendsOn = BUSINESS_CALENDAR.dateOf(suspendsAt);
      const merchantName = await tx.nameOf(merchantId);
      let pushes = 0;
      for (const owner of await tx.owners(merchantId)) {
        const text = messageText('suspension_warning', languageOf(owner.app_language), {
          merchantName,
          reason,
          suspendsOn,
          inactivityMonths: this.months,
        });
        pushes += await this.notifications.queuePushToUser(
          tx,
          box,
          owner.user_id,
          {
            ...text,
            data: {
              type: 'suspension_warning',
              merchant_id: merchantId,
              reason,
              due_at: dueAt.toISOString(),
              suspends_on: suspendsOn,
            },
          },
          { key: `suspension_warning:${merchantId}:${reason}:${BUSINESS_CALENDAR.dateOf(dueAt)}:${owner.user_id}` },
        );
      }
      await tx.recordPushes(merchantId, reason, dueAt, pushes);
      return warnedAt;
    });
  }

  /** From now until the warning days ahead: the due times a run acts on. */
  private warnFrom(now: Date): Date {
    return new Date(now.getTime() + this.warningDays * DAY_MS);
  }
}

function validInstant(value: string | null | undefined): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const DATE_FIELDS = ['due_at', 'suspends_at', 'warned_at', 'kyc_expires_at', 'last_success_at', 'activity_checked_at'] as const;
function dates(row: SuspensionDueRow): Pick<SuspensionDueRow, (typeof DATE_FIELDS)[number]> {
  return Object.fromEntries(DATE_FIELDS.map((f) => [f, row[f] === null ? null : new Date(row[f])])) as Pick<
    SuspensionDueRow,
    (typeof DATE_FIELDS)[number]
  >;
}
