import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@lib/crypto/secret-box';
import { type JobSpec } from '@lib/jobs/job-queue';
import { DEFAULT_JITTER, type RetrySchedule, maxAttempts, retryDelayMs } from '@lib/jobs/retry-schedule';
import type { SendOutcome, WebhookSender } from './webhook-sender';
import { type AttemptTarget, WebhookRepository } from './webhook.repository';

/** Delays before attempts 2, 3, 4 and 5 (psp-api.md §6 "Delivery rules", DESIGN.md §6), in seconds. */
export const RETRY_DELAYS_SECS = [30, 5 * 60, 30 * 60, 2 * 60 * 60] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECS.length + 1;

/** The task of one attempt of one delivery (run by the merchant process's worker). */
export const WEBHOOK_ATTEMPT_TASK = 'webhook.attempt';

export type AttemptKind = 'automatic' | 'manual';

export interface AttemptPayload {
  delivery_id: string;
  kind: AttemptKind;
  /** Automatic attempts: which attempt of the schedule this is (1–5). */
  attempt?: number;
}

/** The schedule with WEBHOOK_RETRY_SCALE applied, jittered (docs/decisions/0031-webhooks-and-job-queue.md). */
export function webhookSchedule(scale: number, jitter = DEFAULT_JITTER): RetrySchedule {
  return { stepsSecs: RETRY_DELAYS_SECS, scale, jitter };
}

/**
 * The job of one attempt. The key makes a replay replace a pending job instead of adding a second. No named queue
 * per bank: graphile-worker keeps a named queue locked while a job of it runs, so a process killed mid-send would
 * stall all of that bank's deliveries until its 4-hour lock timeout (docs/decisions/0031-webhooks-and-job-queue.md).
 */
export function attemptJob(deliveryId: string, kind: AttemptKind, attempt?: number, runAt?: Date): JobSpec {
  const payload: AttemptPayload = { delivery_id: deliveryId, kind, ...(attempt !== undefined ? { attempt } : {}) };
  return {
    task: WEBHOOK_ATTEMPT_TASK,
    payload,
    jobKey: kind === 'automatic' ? `webhook:${deliveryId}:${attempt}` : `webhook:${deliveryId}:manual`,
    runAt,
  };
}

export interface AttemptLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface AttemptHooks {
  /** Every attempt made, by kind and outcome (the process counts them). */
  onAttempt?(kind: AttemptKind | 'test', outcome: SendOutcome): void;
  /** A delivery failed its last automatic attempt (the process counts them: operators are alerted). */
  onFinalFailure?(bankCode: string): void;
}

/** The outcome of one attempt as operators see it (`webhook:test`, the attempts listing). */
export interface AttemptResult {
  event_id: string;
  kind: AttemptKind | 'test';
  delivered: boolean;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  next_attempt_at: string | null;
}

/**
 * Makes and records webhook attempts (docs/decisions/0031-webhooks-and-job-queue.md). An automatic attempt is a job; its outcome,
 * the attempt's row and the job of the next attempt (the documented schedule plus jitter) commit in one transaction,
 * so an attempt is never recorded without its successor or scheduled twice. A manual attempt (an operator's
 * redelivery) is recorded the same way but leaves the schedule where it was.
 */
export class WebhookAttempts {
  private readonly repo: WebhookRepository;

  constructor(
    em: EntityManager,
    private readonly box: SecretBox,
    private readonly sender: WebhookSender,
    private readonly schedule: RetrySchedule,
    private readonly log: AttemptLog,
    private readonly hooks: AttemptHooks = {},
  ) {
    this.repo = new WebhookRepository(em);
  }

  /** The job handler: one attempt of `payload.delivery_id`, unless it is no longer due. */
  async run(payload: AttemptPayload): Promise<void> {
    const target = await this.repo.attemptTarget(payload.delivery_id);
    if (!target) return;
    const context = { event_id: target.id, event: target.event, bank_code: target.bank_code, kind: payload.kind };
    if (payload.kind === 'automatic') {
      const attempt = payload.attempt ?? target.attempts + 1;
      // Already made (a job run again after its outcome was recorded), delivered by a redelivery, or held.
      if (target.status !== 'pending' || target.attempts !== attempt - 1) return;
      if (await this.repo.sqlTransaction((tx) => tx.holdIfDisabled(target.id, target.bank_id))) {
        this.log.info({ ...context, attempt }, 'webhook held: the endpoint is disabled');
        return;
      }
      const startedAt = new Date();
      const outcome = await this.send(target);
      this.hooks.onAttempt?.('automatic', outcome);
      await this.recordAutomatic(target, attempt, startedAt, outcome, context);
      return;
    }
    if (target.disabled) {
      await this.repo.recordExtra(
        target.id,
        { ok: false, statusCode: null, error: 'the endpoint is disabled' },
        maxAttempts(this.schedule),
      );
      this.log.info(context, 'webhook redelivery skipped: the endpoint is disabled');
      return;
    }
    const startedAt = new Date();
    const outcome = await this.send(target);
    this.hooks.onAttempt?.('manual', outcome);
    await this.recordExtra(target, 'manual', startedAt, outcome);
    this.log.info({ ...context, status_code: outcome.statusCode, error: outcome.error }, 'webhook redelivered');
  }

  /** One attempt now, in this request (an operator's test event): recorded, never retried. */
  async sendNow(deliveryId: string): Promise<AttemptResult> {
    const target = await this.repo.attemptTarget(deliveryId);
    if (!target) throw new Error(`no delivery ${deliveryId}`);
    const startedAt = new Date();
    const outcome = await this.send(target);
    this.hooks.onAttempt?.('test', outcome);
    await this.recordExtra(target, 'test', startedAt, outcome);
    return resultOf(target.id, 'test', outcome, null);
  }

  private async send(target: AttemptTarget): Promise<SendOutcome> {
    if (!target.url || !target.secret_sealed)
      return { ok: false, statusCode: null, error: 'the bank has no webhook endpoint', latencyMs: 0 };
    return this.sender.send(target.url, this.box.open(target.secret_sealed), target.id, target.body);
  }

  private async recordAutomatic(
    target: AttemptTarget,
    attempt: number,
    startedAt: Date,
    outcome: SendOutcome,
    context: Record<string, unknown>,
  ): Promise<void> {
    const delayMs = outcome.ok ? null : retryDelayMs(this.schedule, attempt);
    const recorded = await this.repo.sqlTransaction(async (tx) => {
      const nextAt = delayMs === null ? null : new Date(Date.now() + delayMs);
      if (!(await tx.recordAutomatic(target.id, attempt, outcome, nextAt))) return null;
      await tx.insertAttempt({ ...attemptRow(target.id, 'automatic', startedAt, outcome), scheduleNo: attempt, nextAttemptAt: nextAt });
      if (nextAt) await tx.enqueue([attemptJob(target.id, 'automatic', attempt + 1, nextAt)]);
      return { nextAt };
    });
    if (!recorded) return;
    const fields = { ...context, attempt, status_code: outcome.statusCode, latency_ms: outcome.latencyMs };
    if (outcome.ok) this.log.info(fields, 'webhook delivered');
    else if (recorded.nextAt)
      this.log.info({ ...fields, error: outcome.error, next_attempt_at: recorded.nextAt }, 'webhook attempt failed');
    else {
      // Operators contact the bank's technical contact (psp-api.md §6): this line and the metric are what they alert on.
      this.log.warn({ ...fields, error: outcome.error }, 'webhook delivery failed after the last attempt');
      this.hooks.onFinalFailure?.(target.bank_code);
    }
  }

  private async recordExtra(target: AttemptTarget, kind: 'manual' | 'test', startedAt: Date, outcome: SendOutcome): Promise<void> {
    await this.repo.sqlTransaction(async (tx) => {
      await tx.insertAttempt({ ...attemptRow(target.id, kind, startedAt, outcome), scheduleNo: null, nextAttemptAt: null });
      await tx.recordExtra(target.id, outcome, maxAttempts(this.schedule));
    });
  }
}

function attemptRow(deliveryId: string, kind: 'automatic' | 'manual' | 'test', startedAt: Date, outcome: SendOutcome) {
  return {
    deliveryId,
    kind,
    startedAt,
    latencyMs: outcome.latencyMs,
    statusCode: outcome.statusCode,
    error: outcome.error,
  };
}

export function resultOf(eventId: string, kind: AttemptKind | 'test', outcome: SendOutcome, nextAttemptAt: Date | null): AttemptResult {
  return {
    event_id: eventId,
    kind,
    delivered: outcome.ok,
    status_code: outcome.statusCode,
    error: outcome.error,
    latency_ms: outcome.latencyMs,
    next_attempt_at: nextAttemptAt?.toISOString() ?? null,
  };
}
