/**
 * NotificationService — `ctx.services.notification` in the merchant subgraph (request scope). Stable API:
 *
 *   sendMessage(phone, template, parameters)          → { status, messageId }
 *       One messaging (WhatsApp-like) template message to a phone (08…, 628…, +628…; BadInputError otherwise), in the
 *       language of the phone's user (`id` when the phone has no user yet: an OTP before the first login).
 *       Templates: `otp` {code}, `merchant_transaction_alert` {…strings}, others as the provider knows them.
 *       status: 'logged' (log provider) | 'accepted' (provider took it) | 'failed' (not delivered). Never throws
 *       for a provider failure: the caller decides what a failed send means.
 *   sendPushToUser(userId, { title, body, data }, { exceptDeviceHash? })  → { sentCount, failedCount, invalidatedCount }
 *   sendPushToPhone(phone, { title, body, data })      → same; the user with that phone (no user: all zero)
 *       One push per live token of the user (all their devices, or all but one). data values are strings
 *       (FCM); `data.type` names the message (e.g. `login_alert`, `transaction`). Tokens the provider reports
 *       UNREGISTERED are invalidated (counted in invalidatedCount, not in failedCount).
 *   sendEmail(email, template, parameters, userId?)    → { status, messageId }
 *       In the user's language: subject and text from the message catalogue (message-catalogue.ts).
 *   languageOf(userId)                                 → 'id' | 'en', the user's app_language (default `id`)
 *
 *   queuePushToUser(tx, userId, { title, body, data, sensitive }, { exceptDeviceHash?, key? })  → jobs queued
 *       The same push as jobs (one per live token, `notification.push`) on `tx`'s connection: enqueued inside the
 *       caller's transaction they commit with it (docs/decisions/0031-webhooks-and-job-queue.md). `sensitive` data values travel
 *       sealed in the job; a failed send is retried (10 s, 1 min, 5 min, plus jitter), a dead token is not.
 *
 * Every send is recorded in merchant.notification_messages (channel, recipient, template, parameters,
 * provider message id, delivery status, language); `npm run ops -- dev:outbox [--phone P]` lists them. Push texts are
 * the caller's, rendered from the message catalogue in the recipient's language (`languageOf`). Values named in
 * SENSITIVE_PARAMETERS (codes, link tokens) are stored only by the log provider outside production, so
 * operators never read a live OTP. Account settings (notification_*_enabled) are the caller's to check.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@lib/config/config';
import type { SecretBox } from '@lib/crypto/secret-box';
import type { Repository } from '@lib/db/repository';
import type { JobSpec } from '@lib/jobs/job-queue';
import { DEFAULT_JITTER, type RetrySchedule, retryDelayMs } from '@lib/jobs/retry-schedule';
import { BadInputError } from '@lib/errors/app-error';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { deviceHash, requireDeviceId } from '../device/device-hash';
import { AccountSettingsRepository } from '../account-settings/account-settings.repository';
import { UserRepository } from '../user/user.repository';
import { type Language, languageOf, templateText } from './message-catalogue';
import { LOG_PROVIDER, type Providers, type SendOutcome, providersFor } from './notification-providers';
import type { MessageStatus, NotificationChannel } from './notification.entity';
import { NotificationRepository } from './notification.repository';

/** Parameters never stored in clear by a real provider (nor in production). */
export const SENSITIVE_PARAMETERS: Record<string, string[]> = {
  otp: ['code'],
  email_otp: ['code'],
  login_alert: ['cancel_token'],
};
const REDACTED = '[redacted]';
/** Order of the statuses a provider reports; a message's status never moves back. */
const STATUS_RANK: Record<string, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };
const RANK_CASE = Object.entries(STATUS_RANK)
  .map(([status, rank]) => `when '${status}' then ${rank}`)
  .join(' ');
const MAX_TEXT = 1000;

/** The task of one push to one device (run by the merchant process's worker). */
export const PUSH_TASK = 'notification.push';
/** Delays before push attempts 2, 3 and 4, in seconds (NOTIFICATION_RETRY_SCALE applies). */
export const PUSH_RETRY_DELAYS_SECS = [10, 60, 300] as const;

/** One push to one device, as queued: sensitive data values sealed (never in the queue in clear). */
export interface PushJobPayload {
  user_id: string;
  token_id: string;
  title: string;
  body: string;
  data: Record<string, string>;
  /** SecretBox-sealed JSON of the sensitive data values (e.g. a login alert's cancel token). */
  sealed_data?: string;
  attempt: number;
}

/** The push retry schedule with NOTIFICATION_RETRY_SCALE applied. */
export function pushSchedule(scale: number): RetrySchedule {
  return { stepsSecs: PUSH_RETRY_DELAYS_SECS, scale, jitter: DEFAULT_JITTER };
}

function pushJob(payload: PushJobPayload, key: string | undefined, runAt?: Date): JobSpec {
  return { task: PUSH_TASK, payload, jobKey: key ? `${key}:${payload.token_id}:${payload.attempt}` : undefined, runAt };
}

export interface PushContent {
  title: string;
  body: string;
  data?: Record<string, string | number | boolean | null | undefined>;
}

/** A queued push: `sensitive` values join `data` at send time and are sealed until then. */
export interface QueuedPushContent extends PushContent {
  sensitive?: Record<string, string>;
}

export interface PushResult {
  sentCount: number;
  failedCount: number;
  invalidatedCount: number;
}

export interface MessageResult {
  status: MessageStatus;
  messageId: string | null;
}

interface Recorded {
  channel: NotificationChannel;
  provider: string;
  recipient: string;
  phone: string | null;
  userId: string | null;
  template: string;
  parameters: Record<string, unknown>;
  language: Language | null;
  outcome: SendOutcome;
}

export class NotificationService {
  private readonly providers: Providers;
  private readonly repo: NotificationRepository;

  constructor(
    em: EntityManager,
    private readonly config: Config,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.providers = providersFor(config);
    this.repo = new NotificationRepository(em);
  }

  async sendMessage(phone: string, template: string, parameters: Record<string, string>): Promise<MessageResult> {
    const e164 = requirePhone(phone);
    checkTemplate(template);
    const provider = this.providers.messaging;
    const userId = await this.userIdOf(e164);
    const language = userId ? await this.languageOf(userId) : 'id';
    const outcome = await provider.send({ to: e164, template, language, parameters });
    return this.record({
      channel: 'messaging',
      provider: provider.name,
      recipient: e164,
      phone: e164,
      userId,
      template,
      parameters,
      language,
      outcome,
    });
  }

  /** The user's app language (core-api.md §2 `app_language`): `id` when none is saved. */
  async languageOf(userId: string): Promise<Language> {
    return languageOf(await this.repo.peer(AccountSettingsRepository).appLanguageOf(userId));
  }

  async sendEmail(
    email: string,
    template: string,
    parameters: Record<string, string>,
    userId: string | null = null,
  ): Promise<MessageResult> {
    checkTemplate(template);
    const provider = this.providers.email;
    const language = userId ? await this.languageOf(userId) : 'id';
    const text = templateText(template, language, parameters);
    const outcome = await provider.send({
      to: email,
      template,
      language,
      subject: text?.title ?? null,
      text: text?.body ?? null,
      parameters,
    });
    const phone = userId ? await this.phoneOf(userId) : null;
    return this.record({
      channel: 'email',
      provider: provider.name,
      recipient: email,
      phone,
      userId,
      template,
      parameters,
      language,
      outcome,
    });
  }

  async sendPushToPhone(phone: string, content: PushContent): Promise<PushResult> {
    const userId = await this.userIdOf(requirePhone(phone));
    return userId ? this.sendPushToUser(userId, content) : { sentCount: 0, failedCount: 0, invalidatedCount: 0 };
  }

  /** The users among `userIds` who have a device to push to. */
  usersWithPushTokens(userIds: readonly string[]): Promise<Set<string>> {
    return this.repo.usersWithLiveTokens(userIds);
  }

  async sendPushToUser(userId: string, content: PushContent, options: { exceptDeviceHash?: string } = {}): Promise<PushResult> {
    const { title, body, data } = normalized(content);
    const tokens = await this.repo.liveTokensOf(userId, options.exceptDeviceHash);
    const result: PushResult = { sentCount: 0, failedCount: 0, invalidatedCount: 0 };
    await Promise.all(
      tokens.map(async (t) => {
        const outcome = await this.pushTo(userId, t, title, body, data);
        if (outcome.ok) result.sentCount += 1;
        else if (outcome.unregistered) result.invalidatedCount += 1;
        else result.failedCount += 1;
      }),
    );
    return result;
  }

  /**
   * Queues the push to each of the user's live tokens (all devices, or all but one) on `tx`'s connection, so that
   * inside a transaction the jobs commit with it. `key` (e.g. the event's id) makes a replay replace pending jobs
   * rather than add more. Answers how many were queued.
   */
  async queuePushToUser(
    tx: Repository,
    box: SecretBox,
    userId: string,
    content: QueuedPushContent,
    options: { exceptDeviceHash?: string; key?: string } = {},
  ): Promise<number> {
    const { title, body, data } = normalized(content);
    const tokens = await tx.peer(NotificationRepository).liveTokensOf(userId, options.exceptDeviceHash);
    const sealed = content.sensitive ? box.seal(JSON.stringify(content.sensitive)) : undefined;
    await tx
      .peer(NotificationRepository)
      .enqueue(
        tokens.map((t) =>
          pushJob(
            { user_id: userId, token_id: t.id, title, body, data, ...(sealed ? { sealed_data: sealed } : {}), attempt: 1 },
            options.key,
          ),
        ),
      );
    return tokens.length;
  }

  /**
   * The job handler of one queued push: sent when the token is still the user's and live; a failed send is recorded
   * and its next attempt queued with the record (by `schedule`); a dead token is invalidated, not retried.
   */
  async runPushJob(payload: PushJobPayload, box: SecretBox, schedule: RetrySchedule): Promise<SendOutcome | null> {
    const token = await this.repo.liveToken(payload.token_id, payload.user_id);
    if (!token) return null;
    const data = { ...payload.data, ...(payload.sealed_data ? (JSON.parse(box.open(payload.sealed_data)) as Record<string, string>) : {}) };
    const delayMs = retryDelayMs(schedule, payload.attempt);
    return this.pushTo(payload.user_id, token, payload.title, payload.body, data, (tx, outcome) =>
      !outcome.ok && !outcome.unregistered && delayMs !== null
        ? tx.enqueue([pushJob({ ...payload, attempt: payload.attempt + 1 }, undefined, new Date(this.clock().getTime() + delayMs))])
        : Promise.resolve(),
    );
  }

  /** One push to one token, recorded (and, with `then`, more work in the record's transaction). */
  private async pushTo(
    userId: string,
    t: { id: string; token: string; phone: string },
    title: string,
    body: string,
    data: Record<string, string>,
    then?: (tx: NotificationRepository, outcome: SendOutcome) => Promise<void>,
  ): Promise<SendOutcome> {
    const provider = this.providers.push;
    const outcome = await provider.send({ token: t.token, title, body, data });
    if (!outcome.ok && outcome.unregistered) await this.repo.invalidateToken(t.id, this.clock());
    const message: Recorded = {
      channel: 'push',
      provider: provider.name,
      recipient: t.token,
      phone: t.phone,
      userId,
      template: data.type ?? 'push',
      parameters: { title, body, data },
      language: null,
      outcome,
    };
    if (then) await this.repo.sqlTransaction(async (tx) => (await this.record(message, tx), await then(tx, outcome)));
    else await this.record(message);
    return outcome;
  }

  /**
   * Registers the push token of a user's device. A provider token belongs to one device: registering it for
   * another user or device moves it there; a device has one token (a new one replaces it, and revives it).
   */
  async registerPushToken(userId: string, input: { pushToken: string; deviceId: string; deviceName?: string | null }): Promise<void> {
    const token = input.pushToken.trim();
    if (!token || token.length > 4096) throw new BadInputError('push_token is required (at most 4096 characters)');
    const hash = deviceHash(requireDeviceId(input.deviceId));
    const now = this.clock();
    await this.repo.sqlTransaction((tx) =>
      tx.registerToken({ id: uuidv7(), userId, deviceHash: hash, deviceName: input.deviceName?.slice(0, 200) ?? null, token, now }),
    );
  }

  /**
   * Delivery statuses reported by the messaging provider's webhook. A status only moves forward (accepted <
   * sent < delivered < read; failed last), so a late `sent` never overwrites `delivered`; unknown ids are
   * ignored. Returns how many messages changed.
   */
  async applyDeliveryStatuses(statuses: { messageId: string; status: string; at: Date }[]): Promise<number> {
    let changed = 0;
    for (const { messageId, status, at } of statuses) {
      if (!(status in STATUS_RANK)) continue;
      const updated = await this.repo.advanceStatus(
        messageId,
        { status, at, error: status === 'failed' ? 'reported failed by the provider' : null },
        RANK_CASE,
        STATUS_RANK[status],
        LOG_PROVIDER,
      );
      changed += updated;
    }
    return changed;
  }

  /** The newest recorded messages (dev:outbox), optionally of one phone. */
  async outbox(filter: { phone?: string; limit?: number } = {}) {
    const rows = await this.repo.outbox({
      phone: filter.phone ? requirePhone(filter.phone) : null,
      limit: Math.min(Math.max(filter.limit ?? 50, 1), 500),
    });
    return rows.map((r) => ({
      channel: r.channel,
      recipient: r.recipient,
      template: r.template,
      parameters: r.parameters,
      status: r.status,
      time: new Date(r.created_at).toISOString(),
    }));
  }

  private async record(message: Recorded, repo: NotificationRepository = this.repo): Promise<MessageResult> {
    const { outcome } = message;
    const status: MessageStatus = outcome.ok
      ? message.provider === LOG_PROVIDER
        ? 'logged'
        : 'accepted'
      : outcome.unregistered
        ? 'invalid_token'
        : 'failed';
    const keepSecrets = message.provider === LOG_PROVIDER && !this.config.isProduction;
    const now = this.clock();
    await repo.insertMessage({
      id: uuidv7(),
      channel: message.channel,
      provider: message.provider,
      recipient: message.recipient,
      phone: message.phone,
      user_id: message.userId,
      template: message.template,
      parameters: JSON.stringify(keepSecrets ? message.parameters : redact(message.template, message.parameters)),
      language: message.language,
      provider_message_id: outcome.ok ? outcome.messageId : null,
      status,
      error: outcome.ok ? null : outcome.error,
      created_at: now,
      status_at: now,
    });
    return { status, messageId: outcome.ok ? outcome.messageId : null };
  }

  private userIdOf(phone: string): Promise<string | null> {
    return this.repo.peer(UserRepository).idByPhone(phone);
  }

  private phoneOf(userId: string): Promise<string | null> {
    return this.repo.peer(UserRepository).phoneOf(userId);
  }
}

function normalized(content: PushContent): { title: string; body: string; data: Record<string, string> } {
  return {
    title: content.title.slice(0, 200),
    body: content.body.slice(0, MAX_TEXT),
    data: Object.fromEntries(
      Object.entries(content.data ?? {})
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ),
  };
}

function requirePhone(phone: string): string {
  const e164 = toIndonesianE164(phone);
  if (!e164) throw new BadInputError('phone must be an Indonesian number (08…, 628… or +628…)');
  return e164;
}

function checkTemplate(template: string): void {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(template)) throw new BadInputError('template must be a lowercase name (letters, digits, _)');
}

/** The template's sensitive values replaced, at any depth (push data included). */
function redact(template: string, parameters: Record<string, unknown>): Record<string, unknown> {
  const names = new Set(SENSITIVE_PARAMETERS[template] ?? []);
  const walk = (value: unknown): unknown => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, names.has(k) ? REDACTED : walk(v)]));
  };
  return walk(parameters) as Record<string, unknown>;
}
