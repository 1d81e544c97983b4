import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { type Visibility, readVisibility } from '@lib/domain/access/user-scope';
import {
  DAILY_SUMMARY_OUTLETS_TASK,
  DAILY_SUMMARY_SEND_TASK,
  type DailySummaryPayload,
  type DailySummaryRecipient,
} from '@lib/domain/jobs/tasks';
import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { type PeriodSummary, TransactionPeriodService } from './transaction.service';

interface OutletSums {
  outlet_id: string;
  gross: string;
  count: string;
}

class DailySummaryFiguresRepository extends Repository {
  /** Success transactions of [from, before) per outlet within `visibility`, the highest gross first. */
  outletSums(merchantId: string, from: Date, before: Date, visibility: Visibility): Promise<OutletSums[]> {
    const outletIds = visibility?.outletIds ?? null;
    return this.rows<OutletSums>(
      `select outlet_id, sum(gross_amount)::text as gross, count(*)::text as count
         from "transaction".transactions
        where merchant_id = ?::uuid and status = 'success' and transaction_at >= ?::timestamptz and transaction_at < ?::timestamptz
          and outlet_id is not null and (?::uuid[] is null or outlet_id = any(?::uuid[]))
        group by outlet_id
        order by sum(gross_amount) desc, count(*) desc, outlet_id`,
      [merchantId, from, before, outletIds, outletIds],
    );
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}

/**
 * The transaction process's hop of the daily summary (docs/decisions/0046-notifications.md): each
 * recipient's figures of the business day, by the very summary of the app's `/merchant/transactions` (the period
 * summary read with the member's own visibility: its role and outlets), and the best outlet when the day's sales in
 * scope came from two or more; then on to the outlet process (the best outlet's name) or straight back to the merchant
 * process.
 */
export class TransactionDailySummaryService {
  private readonly period: TransactionPeriodService;
  private readonly repo: DailySummaryFiguresRepository;

  constructor(
    em: EntityManager,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.period = new TransactionPeriodService(em);
    this.repo = new DailySummaryFiguresRepository(em);
  }

  /** Answers the next hop's task, or null when the payload is past its deadline (nothing more is sent). */
  async figures(payload: DailySummaryPayload): Promise<string | null> {
    if (this.clock().getTime() > new Date(payload.deadline_at).getTime()) return null;
    if (!UUID_PATTERN.test(payload.merchant_id)) return null;
    const from = new Date(payload.from);
    const before = new Date(payload.before);
    const byScope = new Map<string, Promise<Pick<DailySummaryRecipient, 'figures' | 'best_outlet'>>>();
    const recipients: DailySummaryRecipient[] = [];
    for (const recipient of payload.recipients) {
      const principal: Principal = {
        kind: 'user',
        userId: recipient.user_id,
        merchantId: payload.merchant_id,
        role: recipient.role,
        outletIds: recipient.outlet_ids,
      };
      const visibility = readVisibility(principal, { merchantId: payload.merchant_id });
      const key = visibility?.outletIds ? [...visibility.outletIds].sort().join(',') : '*';
      let figures = byScope.get(key);
      if (!figures) byScope.set(key, (figures = this.figuresIn(payload.merchant_id, from, before, visibility)));
      recipients.push({ ...recipient, ...(await figures) });
    }
    const task = recipients.some((r) => r.best_outlet) ? DAILY_SUMMARY_OUTLETS_TASK : DAILY_SUMMARY_SEND_TASK;
    await this.repo.sqlTransaction((tx) =>
      tx.enqueue([
        {
          task,
          payload: { ...payload, recipients } satisfies DailySummaryPayload,
          jobKey: `${task}:${payload.merchant_id}:${payload.business_day}`,
        },
      ]),
    );
    return task;
  }

  private async figuresIn(
    merchantId: string,
    from: Date,
    before: Date,
    visibility: Visibility,
  ): Promise<Pick<DailySummaryRecipient, 'figures' | 'best_outlet'>> {
    const s: PeriodSummary = await this.period.summaryOfMerchant(merchantId, from, before, visibility);
    const outlets = await this.repo.outletSums(merchantId, from, before, visibility);
    const best = outlets.length >= 2 ? outlets[0] : null;
    return {
      figures: {
        count: s.count,
        gross_amount: s.grossAmount,
        mdr_fee_amount: s.mdrFeeAmount,
        service_fee_amount: s.serviceFeeAmount,
        net_amount: s.netAmount,
      },
      best_outlet: best ? { outlet_id: best.outlet_id, gross_amount: Number(best.gross), count: Number(best.count) } : null,
    };
  }
}
