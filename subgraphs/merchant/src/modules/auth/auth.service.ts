import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { SecretBox } from '@lib/crypto/secret-box';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { deviceHash, requireDeviceId } from '../device/device-hash';
import type { DeviceInfo } from '../device/device.repository';
import type { DeviceService } from '../device/device.service';
import { messageText } from '../notification/message-catalogue';
import { NotificationRepository } from '../notification/notification.repository';
import type { NotificationService } from '../notification/notification.service';
import type { OtpService } from '../otp/otp.service';
import type { SessionGrant, SessionService } from '../session/session.service';
import { UserRepository } from '../user/user.repository';
import { OtpDeliveryFailedError } from './auth.errors';
import { AuthRepository } from './auth.repository';

export const VERIFICATION_CHANNEL = 'messaging';
export const OTP_METHODS = ['messaging', 'whatsapp'] as const;
export const FLOW_MODES = ['registration', 'login_primary', 'login_fallback'] as const;
export const FALLBACK_REASONS = ['messaging_unavailable', 'email_unavailable', 'user_switched'] as const;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;

export interface DeviceInput {
  platformCode?: string | null;
  deviceId?: string | null;
  deviceName?: string | null;
}

export type PhoneResolution =
  | { status: 'authenticated'; phone: string; grant: SessionGrant }
  | { status: 'verification_required'; phone: string; reason: 'new_user' | 'new_device'; verificationChannel: string };

export interface ExternalLoginInput extends DeviceInput {
  /** Already verified by the adapter (ID token signature, issuer, audience, Indonesian phone). */
  phone: string;
  issuer: string;
  subject?: string | null;
  requestId?: string | null;
  flowMode?: string | null;
  fallbackReason?: string | null;
  hintPhone?: string | null;
}

/**
 * Phone login (core-api.md §4 auth): resolve a phone, send and verify one-time passwords, trust devices, open
 * sessions, cancel a login from its alert, verify an email. A user row is created by the first successful
 * verification (OTP or external), never by resolve-phone or request-otp.
 */
export class AuthService {
  private readonly repo: AuthRepository;

  constructor(
    em: EntityManager,
    private readonly otp: OtpService,
    private readonly sessions: SessionService,
    private readonly devices: DeviceService,
    private readonly notifications: NotificationService,
    /** Seals the login alert's cancel token inside its queued push (never in the queue in clear). */
    private readonly box: SecretBox,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new AuthRepository(em);
  }

  /** A trusted device of an existing user gets a session at once; anyone else must verify the phone. */
  async resolvePhone(input: { phone: string } & DeviceInput): Promise<PhoneResolution> {
    const phone = requirePhone(input.phone);
    const device = deviceOf(input);
    const user = await this.repo.peer(UserRepository).rowByPhone(phone);
    if (!user) return { status: 'verification_required', phone, reason: 'new_user', verificationChannel: VERIFICATION_CHANNEL };
    if (device.deviceHash) {
      const grant = await this.repo.sqlTransaction(async (tx) => {
        if (!(await this.devices.seen(tx, user.id, device.deviceHash!))) return null;
        return this.sessions.open(tx, user, device, 'trusted_device');
      });
      if (grant) return { status: 'authenticated', phone, grant };
    }
    return { status: 'verification_required', phone, reason: 'new_device', verificationChannel: VERIFICATION_CHANNEL };
  }

  /**
   * A login code by the messaging provider (template `otp`, in the language of the phone's user; Indonesian before the
   * first login); an undelivered code is discarded (503).
   */
  async requestLoginOtp(input: { phone: string; method?: string | null; clientAddress?: string | null } & DeviceInput) {
    const phone = requirePhone(input.phone);
    const method = input.method ?? 'messaging';
    if (!(OTP_METHODS as readonly string[]).includes(method))
      throw new BadInputError(`method must be one of ${OTP_METHODS.join(', ')}`, { field: 'method', rule: 'enum', allowed: OTP_METHODS });
    const device = deviceOf(input);
    const issued = await this.otp.issue({ purpose: 'login', subject: phone, method, clientAddress: input.clientAddress, ...device });
    const sent = await this.notifications.sendMessage(phone, 'otp', { code: issued.code });
    if (sent.status === 'failed') {
      await this.otp.discard(issued.id);
      throw new OtpDeliveryFailedError();
    }
    return { requestId: issued.id, phone, method, expiresInSecs: issued.expiresInSecs, retryAfterSecs: issued.retryAfterSecs };
  }

  /**
   * Verifies a login code: the user is created if absent (phone verified), the device trusted, a session
   * opened; and, in the same transaction, a login_alert push carrying a cancel link is queued for each of the
   * user's other devices with a push token (docs/decisions/0031-webhooks-and-job-queue.md): the login answers at once, the
   * alert follows within moments and is retried if the provider fails.
   */
  async verifyLoginOtp(input: { requestId: string; phone: string; code: string } & DeviceInput): Promise<SessionGrant> {
    const phone = requirePhone(input.phone);
    if (!/^[0-9]{6}$/.test(input.code)) throw new BadInputError('code must be 6 digits');
    if (!UUID_PATTERN.test(input.requestId)) throw new BadInputError('request_id must be a UUID');
    const device = deviceOf(input);
    await this.otp.verify({ purpose: 'login', subject: phone, id: input.requestId, code: input.code });
    return this.repo.sqlTransaction(async (tx) => {
      const user = await this.upsertVerifiedUser(tx, phone);
      await this.devices.trust(tx, user.id, device);
      const grant = await this.sessions.open(tx, user, device, 'otp');
      await this.queueLoginAlert(tx, grant, device);
      return grant;
    });
  }

  /** A phone an identity provider verified (external-phone-verify): no OTP, no login_alert; kept for audit. */
  async externalLogin(input: ExternalLoginInput): Promise<SessionGrant> {
    const phone = requirePhone(input.phone);
    if (input.flowMode && !(FLOW_MODES as readonly string[]).includes(input.flowMode))
      throw new BadInputError(`flow_mode must be one of ${FLOW_MODES.join(', ')}`);
    if (input.fallbackReason && !(FALLBACK_REASONS as readonly string[]).includes(input.fallbackReason)) {
      throw new BadInputError(`fallback_reason must be one of ${FALLBACK_REASONS.join(', ')}`);
    }
    const device = deviceOf(input);
    return this.repo.sqlTransaction(async (tx) => {
      const user = await this.upsertVerifiedUser(tx, phone);
      await this.devices.trust(tx, user.id, device);
      const grant = await this.sessions.open(tx, user, device, 'external');
      await tx.insertExternalVerification({
        id: uuidv7(),
        user_id: user.id,
        session_id: grant.sessionId,
        phone,
        issuer: input.issuer.slice(0, 500),
        subject: input.subject?.slice(0, 500) ?? null,
        request_id: input.requestId?.slice(0, 100) ?? null,
        flow_mode: input.flowMode ?? null,
        fallback_reason: input.fallbackReason ?? null,
        hint_phone: input.hintPhone?.slice(0, 32) ?? null,
        platform_code: device.platformCode,
        device_hash: device.deviceHash,
        created_at: this.clock(),
      });
      return grant;
    });
  }

  /** An email change code for the user (template `email_otp` by the email provider, in the user's language). */
  async requestEmailOtp(userId: string, rawEmail: string, clientAddress?: string | null) {
    const email = requireEmail(rawEmail);
    const issued = await this.otp.issue({ purpose: 'email', subject: userId, method: 'email', email, clientAddress });
    const sent = await this.notifications.sendEmail(email, 'email_otp', { code: issued.code }, userId);
    if (sent.status === 'failed') {
      await this.otp.discard(issued.id);
      throw new OtpDeliveryFailedError();
    }
    return { email, expiresInSecs: issued.expiresInSecs };
  }

  /** Verifies the user's latest email code; the email must be the one it was sent to. */
  async verifyEmailOtp(userId: string, rawEmail: string, code: string) {
    const email = requireEmail(rawEmail);
    if (!/^[0-9]{6}$/.test(code)) throw new BadInputError('code must be 6 digits');
    await this.otp.verify({ purpose: 'email', subject: userId, code, email });
    const now = this.clock();
    await this.repo.peer(UserRepository).setVerifiedEmail(userId, email, now);
    return { userId, email, emailVerified: true };
  }

  /** The login_alert pushes to the user's other devices, queued in `tx` (nothing when there are none). */
  private async queueLoginAlert(tx: AuthRepository, grant: SessionGrant, device: DeviceInfo): Promise<void> {
    const others = await tx.peer(NotificationRepository).countLiveTokensOf(grant.userId, device.deviceHash);
    if (others === 0) return;
    const cancelToken = await this.sessions.cancelLink(grant.sessionId, tx);
    const language = await this.notifications.languageOf(grant.userId);
    await this.notifications.queuePushToUser(
      tx,
      this.box,
      grant.userId,
      {
        ...messageText('login_alert', language, { deviceName: device.deviceName }),
        data: { type: 'login_alert', device_name: device.deviceName ?? '', platform_code: device.platformCode },
        sensitive: { cancel_token: cancelToken },
      },
      { exceptDeviceHash: device.deviceHash ?? undefined, key: `login_alert:${grant.sessionId}` },
    );
  }

  /** The user of a phone that was just verified, created if absent (race-free: insert … on conflict), in `tx`. */
  private async upsertVerifiedUser(tx: AuthRepository, phone: string): Promise<{ id: string; phone: string }> {
    return tx.peer(UserRepository).upsertVerified(uuidv7(), phone, this.clock());
  }
}

function requirePhone(phone: string): string {
  const e164 = toIndonesianE164(phone);
  if (!e164) throw new BadInputError('phone must be an Indonesian number (08…, 628… or +628…)', { field: 'phone', rule: 'format' });
  return e164;
}

function requireEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (normalized.length > 254 || !EMAIL.test(normalized)) throw new BadInputError('email is not a valid address');
  return normalized;
}

function deviceOf(input: DeviceInput): DeviceInfo {
  const platformCode = (input.platformCode ?? 'mobile_app').trim() || 'mobile_app';
  if (!/^[a-z0-9_-]{1,32}$/i.test(platformCode)) throw new BadInputError('platform_code must be 1 to 32 letters, digits, _ or -');
  return {
    deviceHash: input.deviceId ? deviceHash(requireDeviceId(input.deviceId)) : null,
    platformCode,
    deviceName: input.deviceName?.trim().slice(0, 200) || null,
  };
}
