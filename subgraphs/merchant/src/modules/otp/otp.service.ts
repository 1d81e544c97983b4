import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { OTP_MAX_ATTEMPTS, OTP_RESEND_COOLDOWN_SECS, OTP_TTL_SECS, type OtpHasher, generateOtpCode } from './otp-code';
import { InvalidOtpError, OtpAttemptsExceededError, OtpCooldownError, OtpExpiredError, OtpRateLimitedError } from './otp.errors';
import { OtpRepository } from './otp.repository';

export type OtpPurpose = 'login' | 'email';
const HOUR_MS = 3600_000;

export interface IssueInput {
  purpose: OtpPurpose;
  /** login: the phone (E.164); email: the user id. */
  subject: string;
  method: string;
  email?: string | null;
  clientAddress?: string | null;
  deviceHash?: string | null;
  platformCode?: string | null;
  deviceName?: string | null;
}

export interface IssuedOtp {
  id: string;
  /** Returned only so the caller can deliver it; never stored or logged in clear. */
  code: string;
  expiresInSecs: number;
  retryAfterSecs: number;
}

export interface VerifiedOtp {
  id: string;
  email: string | null;
  deviceHash: string | null;
}

/**
 * One-time passwords in PostgreSQL (the OTP runtime store). Issuing is serialised per subject and per client
 * address (transaction-scoped advisory locks), so the cooldown and the hourly caps hold under concurrent
 * requests. Each try is counted by one conditional UPDATE before the code is compared, so concurrent wrong
 * guesses can never exceed OTP_MAX_ATTEMPTS; a right code is consumed by another conditional UPDATE, so it
 * works once.
 */
export class OtpService {
  private readonly repo: OtpRepository;

  constructor(
    em: EntityManager,
    private readonly hasher: OtpHasher,
    private readonly limits: { maxPerPhonePerHour: number; maxPerAddressPerHour: number },
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new OtpRepository(em);
  }

  /** The store answers (one round trip), else this throws. */
  async ping(): Promise<void> {
    await this.repo.ping();
  }

  async issue(input: IssueInput): Promise<IssuedOtp> {
    const now = this.clock();
    const id = uuidv7();
    const code = generateOtpCode();
    await this.repo.sqlTransaction(async (tx) => {
      await tx.lock(`otp:${input.purpose}:${input.subject}`);
      if (input.clientAddress) await tx.lock(`otp-address:${input.clientAddress}`);
      const hourAgo = new Date(now.getTime() - HOUR_MS);
      const recent = await tx.recentOfSubject(input.purpose, input.subject, hourAgo);
      if (recent.length > 0) {
        const sinceLast = (now.getTime() - new Date(recent[0].created_at).getTime()) / 1000;
        if (sinceLast < OTP_RESEND_COOLDOWN_SECS) throw new OtpCooldownError(Math.max(1, Math.ceil(OTP_RESEND_COOLDOWN_SECS - sinceLast)));
      }
      if (recent.length >= this.limits.maxPerPhonePerHour) throw new OtpRateLimitedError(retryAfter(recent.at(-1)!.created_at, now));
      if (input.clientAddress) {
        const byAddress = await tx.recentOfAddress(input.clientAddress, hourAgo);
        if (byAddress.length >= this.limits.maxPerAddressPerHour) throw new OtpRateLimitedError(retryAfter(byAddress[0].created_at, now));
      }
      // a new code invalidates every earlier live one of the subject
      await tx.supersedeLive(input.purpose, input.subject, now);
      await tx.insert({
        id,
        purpose: input.purpose,
        subject: input.subject,
        email: input.email ?? null,
        method: input.method,
        code_hash: this.hasher.hash(id, code),
        client_address: input.clientAddress ?? null,
        device_hash: input.deviceHash ?? null,
        platform_code: input.platformCode ?? null,
        device_name: input.deviceName ?? null,
        created_at: now,
        expires_at: new Date(now.getTime() + OTP_TTL_SECS * 1000),
      });
    });
    return { id, code, expiresInSecs: OTP_TTL_SECS, retryAfterSecs: OTP_RESEND_COOLDOWN_SECS };
  }

  /** Removes a challenge whose code could not be delivered, so it counts for neither cooldown nor caps. */
  async discard(id: string): Promise<void> {
    await this.repo.delete(id);
  }

  /**
   * Checks a code against a challenge: the one with `id` (login), or the subject's latest (email). Counts the
   * try first (atomically), then compares; the fifth wrong try kills the code. With `email`, the code must also
   * have been sent to that address (else it is a wrong try, and the code is not used up).
   */
  async verify(input: { purpose: OtpPurpose; subject: string; id?: string; code: string; email?: string }): Promise<VerifiedOtp> {
    const now = this.clock();
    const target = input.id
      ? await this.repo.idOf(input.id, input.purpose, input.subject)
      : await this.repo.latestIdOf(input.purpose, input.subject);
    if (!target) throw new InvalidOtpError();
    const counted = await this.repo.countTry(target.id, now, OTP_MAX_ATTEMPTS);
    if (!counted) {
      const row = await this.repo.stateOf(target.id);
      if (row && row.attempts >= OTP_MAX_ATTEMPTS && !row.consumed_at && !row.superseded_at) throw new OtpAttemptsExceededError();
      throw new OtpExpiredError();
    }
    const right =
      this.hasher.matches(counted.id, input.code, counted.code_hash) && (input.email === undefined || counted.email === input.email);
    if (!right) {
      if (counted.attempts >= OTP_MAX_ATTEMPTS) throw new OtpAttemptsExceededError();
      throw new InvalidOtpError(OTP_MAX_ATTEMPTS - counted.attempts);
    }
    const consumed = await this.repo.consume(counted.id, now);
    if (consumed !== 1) throw new OtpExpiredError();
    return { id: counted.id, email: counted.email, deviceHash: counted.device_hash };
  }
}

function retryAfter(oldestInWindow: Date, now: Date): number {
  return Math.max(1, Math.ceil((new Date(oldestInWindow).getTime() + HOUR_MS - now.getTime()) / 1000));
}
