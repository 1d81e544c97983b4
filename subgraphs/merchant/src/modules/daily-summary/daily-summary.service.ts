import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import type { SecretBox } from '@lib/crypto/secret-box';
import { DAILY_SUMMARY_FIGURES_TASK, type DailySummaryPayload, type DailySummaryRecipient } from '@lib/domain/jobs/tasks';
import type { JobSpec } from '@lib/jobs/job-queue';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { AccountSettingsService } from '../account-settings/account-settings.service';
import { MerchantRepository } from '../merchant/merchant.repository';
import { languageOf, messageText } from '../notification/message-catalogue';
import type { NotificationService } from '../notification/notification.service';
import { type LocalTime, businessDayOf, nextSendTime } from './daily-summary-schedule';
import { DailySummaryRepository, type RecipientRow } from './daily-summary.repository';

/** The merchant process's daily job that plans a business day's summaries; one pending at a time (its job key). */
export const DAILY_SUMMARY_PLAN_TASK = 'daily_summary.plan';
export const DAILY_SUMMARY_PLAN_KEY = 'daily_summary.plan';

export interface PlanPayload {
  /** The send time this run is for (ISO): its business day, and the start of its catch-up window. */
  scheduled_at: string;
}

export type PlanOutcome =
  | { status: 'planned'; businessDay: string; merchants: number; recipients: number; next: Date }
  | { status: 'too_late'; businessDay: string; next: Date };

export type SendOutcome = { status: 'too_late' | 'not_active' } | { status: 'queued'; summaries: number; pushes: number };

/**
 * The daily summary push (core-api.md §2 `notification_daily_summary_enabled`; docs/decisions/0046-notifications.md).
 *
 * Once per business day, at the configured local send time, a `daily_summary.plan` job names every member of an
 * active merchant whose settings allow it (and who has a device) and sends one `daily_summary.figures` job per merchant
 * to the transaction process; its answer (through the outlet process for the best outlet's name) comes back as
 * `daily_summary.send`, which records each (user, day) once and queues the push in the same transaction. Each plan job
 * queues the next one, so the chain lives in the queue itself and survives any restart; a plan job or a send that runs
 * more than the catch-up window after its send time (every worker down) sends nothing.
 */
export class DailySummaryService {
  private readonly repo: DailySummaryRepository;
  private readonly merchants: MerchantRepository;
  private readonly sendAt: LocalTime;
  private readonly catchUpMs: number;

  constructor(
    em: EntityManager,
    config: Config,
    private readonly notifications: NotificationService,
    private readonly accountSettings: AccountSettingsService,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new DailySummaryRepository(em);
    this.merchants = new MerchantRepository(em);
    this.sendAt = config.dailySummary.sendAt;
    this.catchUpMs = config.dailySummary.catchUpMs;
  }

  /** At every worker start: the next plan job exists (an existing pending one, maybe overdue after an outage, is kept). */
  async ensureScheduled(): Promise<void> {
    const next = nextSendTime(new Date(this.clock().getTime() - this.catchUpMs), this.sendAt);
    await this.repo.ensureJob(DAILY_SUMMARY_PLAN_TASK, DAILY_SUMMARY_PLAN_KEY, { scheduled_at: next.toISOString() }, next);
  }

  /**
   * One business day's plan: within the catch-up window, one figures job per merchant with recipients (keyed per
   * merchant and day, so a re-run replaces a pending one); in the same transaction, the next plan job. The next send
   * time is the first after this one that is not already past its own window.
   */
  async plan(payload: PlanPayload): Promise<PlanOutcome> {
    const now = this.clock();
    const given = new Date(payload.scheduled_at);
    // A payload without a valid time counts as infinitely late: nothing is sent, the chain goes on.
    const valid = !Number.isNaN(given.getTime());
    const scheduled = valid ? given : new Date(0);
    const { day, from, before } = businessDayOf(scheduled);
    const deadline = new Date(scheduled.getTime() + this.catchUpMs);
    const nextAfter = new Date(Math.max(scheduled.getTime(), now.getTime() - this.catchUpMs));
    const next = nextSendTime(nextAfter, this.sendAt);
    const nextJob: JobSpec = {
      task: DAILY_SUMMARY_PLAN_TASK,
      payload: { scheduled_at: next.toISOString() } satisfies PlanPayload,
      runAt: next,
      jobKey: DAILY_SUMMARY_PLAN_KEY,
    };
    if (!valid || now.getTime() > deadline.getTime()) {
      await this.repo.sqlTransaction((tx) => tx.enqueue([nextJob]));
      return { status: 'too_late', businessDay: day, next };
    }
    const byMerchant = groupRecipients(await this.repo.recipients(day));
    const jobs: JobSpec[] = [...byMerchant].map(([merchantId, recipients]) => ({
      task: DAILY_SUMMARY_FIGURES_TASK,
      payload: {
        merchant_id: merchantId,
        business_day: day,
        from: from.toISOString(),
        before: before.toISOString(),
        deadline_at: deadline.toISOString(),
        recipients,
      } satisfies DailySummaryPayload,
      jobKey: `daily_summary:${merchantId}:${day}`,
    }));
    await this.repo.sqlTransaction((tx) => tx.enqueue([...jobs, nextJob]));
    const count = [...byMerchant.values()].reduce((n, r) => n + r.length, 0);
    return { status: 'planned', businessDay: day, merchants: byMerchant.size, recipients: count, next };
  }

  /**
   * The figures of a merchant's recipients, back from the transaction (and outlet) process: for each recipient whose
   * settings still allow it, in their language, the (user, day) row and the push commit together; a user already
   * recorded for the day gets nothing more.
   */
  async send(payload: DailySummaryPayload, box: SecretBox): Promise<SendOutcome> {
    const now = this.clock();
    if (now.getTime() > new Date(payload.deadline_at).getTime()) return { status: 'too_late' };
    const merchant = UUID_PATTERN.test(payload.merchant_id) ? await this.merchants.byId(payload.merchant_id) : null;
    if (!merchant || merchant.status !== 'active') return { status: 'not_active' };
    const allowed: { recipient: DailySummaryRecipient; language: ReturnType<typeof languageOf> }[] = [];
    for (const recipient of payload.recipients) {
      const settings = await this.accountSettings.of(recipient.user_id);
      if (settings.notificationPushEnabled && settings.notificationDailySummaryEnabled)
        allowed.push({ recipient, language: languageOf(settings.appLanguage) });
    }
    return this.repo.sqlTransaction(async (tx) => {
      const claimed = await tx.claim(
        allowed.map((a) => a.recipient.user_id),
        payload.business_day,
        merchant.id,
        now,
      );
      let pushes = 0;
      for (const { recipient, language } of allowed) {
        if (!claimed.has(recipient.user_id)) continue;
        const figures = recipient.figures ?? { count: 0, gross_amount: 0, mdr_fee_amount: 0, service_fee_amount: 0, net_amount: 0 };
        const best = recipient.best_outlet ?? null;
        const text = messageText('daily_summary', language, {
          merchantName: merchant.name,
          businessDay: payload.business_day,
          count: figures.count,
          grossAmount: figures.gross_amount,
          netAmount: figures.net_amount,
          bestOutlet: best ? { name: best.name ?? best.outlet_id, grossAmount: best.gross_amount } : null,
        });
        pushes += await this.notifications.queuePushToUser(
          tx,
          box,
          recipient.user_id,
          {
            ...text,
            data: {
              type: 'daily_summary',
              merchant_id: merchant.id,
              business_day: payload.business_day,
              transaction_count: figures.count,
              gross_amount: figures.gross_amount,
              mdr_fee_amount: figures.mdr_fee_amount,
              service_fee_amount: figures.service_fee_amount,
              net_amount: figures.net_amount,
              best_outlet_id: best?.outlet_id,
              best_outlet_name: best?.name,
              best_outlet_gross_amount: best?.gross_amount,
            },
          },
          { key: `daily_summary:${recipient.user_id}:${payload.business_day}` },
        );
      }
      return { status: 'queued', summaries: claimed.size, pushes };
    });
  }
}

/** Recipients per merchant; a user who is a member of several merchants is planned once, for the oldest membership. */
function groupRecipients(rows: RecipientRow[]): Map<string, DailySummaryRecipient[]> {
  const seen = new Set<string>();
  const firstOf = new Map<string, RecipientRow>();
  for (const row of rows) {
    if (!seen.has(row.user_id)) {
      seen.add(row.user_id);
      firstOf.set(row.user_id, row);
    }
  }
  const byMerchant = new Map<string, DailySummaryRecipient[]>();
  for (const row of firstOf.values()) {
    const list = byMerchant.get(row.merchant_id) ?? [];
    list.push({ user_id: row.user_id, role: row.role, outlet_ids: row.outlet_ids ?? [] });
    byMerchant.set(row.merchant_id, list);
  }
  return byMerchant;
}
