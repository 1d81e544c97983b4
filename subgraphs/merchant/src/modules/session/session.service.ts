import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Repository } from '@lib/db/repository';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { DeviceInfo } from '../device/device.repository';
import type { DeviceService } from '../device/device.service';
import { newOpaqueToken, opaqueTokenHash } from './session-token';
import { InvalidCancelTokenError, InvalidRefreshTokenError, RefreshTokenReusedError } from './session.errors';
import { SessionRepository } from './session.repository';

/** A session lasts at most 90 days from login; each refresh token 30 days from its issue (never past the session). */
export const SESSION_LIFETIME_SECS = 90 * 24 * 3600;
export const REFRESH_TOKEN_LIFETIME_SECS = 30 * 24 * 3600;
/** How long the link of a login_alert can cancel that login. */
export const CANCEL_LINK_LIFETIME_SECS = 24 * 3600;

export type AuthMethod = 'otp' | 'trusted_device' | 'external';

export interface SessionGrant {
  sessionId: string;
  userId: string;
  phone: string;
  refreshToken: string;
}

/**
 * Sessions (one per device login) and their refresh tokens. Rotation with reuse detection (RFC 9700 §4.14.2):
 * every refresh consumes its token (one conditional UPDATE, so two concurrent uses cannot both win) and issues
 * the next one in the same session; a consumed token presented again revokes the session, i.e. the whole token
 * family and every access token of it (userAuth checks the session).
 */
export class SessionService {
  private readonly repo: SessionRepository;

  constructor(
    em: EntityManager,
    private readonly devices: DeviceService,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.repo = new SessionRepository(em);
  }

  /** Opens a session with its first refresh token, inside the caller's transaction (`tx`: any repository bound to it). */
  async open(tx: Repository, user: { id: string; phone: string }, device: DeviceInfo, method: AuthMethod): Promise<SessionGrant> {
    const sessions = tx.peer(SessionRepository);
    const now = this.clock();
    const sessionId = uuidv7();
    await sessions.insertSession({
      id: sessionId,
      userId: user.id,
      deviceHash: device.deviceHash,
      platformCode: device.platformCode,
      deviceName: device.deviceName,
      authMethod: method,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECS * 1000),
    });
    const refreshToken = await this.issueRefreshToken(sessions, sessionId, new Date(now.getTime() + SESSION_LIFETIME_SECS * 1000));
    return { sessionId, userId: user.id, phone: user.phone, refreshToken };
  }

  async refresh(refreshToken: string): Promise<SessionGrant> {
    const now = this.clock();
    const hash = opaqueTokenHash(refreshToken);
    const used = await this.repo.useRefreshToken(hash, now);
    if (!used) {
      const known = await this.repo.refreshTokenSession(hash);
      if (!known) throw new InvalidRefreshTokenError();
      await this.revoke(known.session_id, 'refresh_token_reuse');
      throw new RefreshTokenReusedError();
    }
    const session = await this.repo.liveSession(used.session_id, now);
    if (!session || new Date(used.expires_at) <= now) throw new InvalidRefreshTokenError();
    const next = await this.issueRefreshToken(this.repo, used.session_id, new Date(session.expires_at));
    return { sessionId: used.session_id, userId: session.user_id, phone: session.phone, refreshToken: next };
  }

  /** Ends a session (idempotent); its refresh tokens and access tokens stop working. */
  async revoke(sessionId: string, reason: string, tx: Repository = this.repo): Promise<boolean> {
    const updated = await tx.peer(SessionRepository).revoke(sessionId, reason, this.clock());
    return updated > 0;
  }

  /** Whether a session is live (not revoked, not past its end), and whose it is. */
  async status(sessionId: string): Promise<{ id: string; userId: string; active: boolean } | null> {
    if (!UUID_PATTERN.test(sessionId)) return null;
    const row = await this.repo.byId(sessionId);
    if (!row) return null;
    return { id: row.id, userId: row.user_id, active: !row.revoked_at && new Date(row.expires_at) > this.clock() };
  }

  /** A single-use link (login_alert) that cancels this session's login, in `tx` when given; the token is returned once. */
  async cancelLink(sessionId: string, tx?: Repository): Promise<string> {
    const now = this.clock();
    const { token, hash } = newOpaqueToken('dl');
    await (tx ? tx.peer(SessionRepository) : this.repo).insertCancellation({
      id: uuidv7(),
      sessionId,
      tokenHash: hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CANCEL_LINK_LIFETIME_SECS * 1000),
    });
    return token;
  }

  /** Uses a cancel link: the session is revoked and its device no longer trusted. */
  async cancelLogin(token: string): Promise<void> {
    if (!/^dl_[A-Za-z0-9_-]{43}$/.test(token)) throw new InvalidCancelTokenError();
    const now = this.clock();
    await this.repo.sqlTransaction(async (tx) => {
      const link = await tx.useCancellation(opaqueTokenHash(token), now);
      if (!link) throw new InvalidCancelTokenError();
      const session = await tx.deviceOf(link.session_id);
      await this.revoke(link.session_id, 'cancelled_by_user', tx);
      if (session?.device_hash) await this.devices.untrust(tx, session.user_id, session.device_hash);
    });
  }

  private async issueRefreshToken(sessions: SessionRepository, sessionId: string, sessionEnd: Date): Promise<string> {
    const now = this.clock();
    const { token, hash } = newOpaqueToken('rt');
    const expires = Math.min(now.getTime() + REFRESH_TOKEN_LIFETIME_SECS * 1000, sessionEnd.getTime());
    await sessions.insertRefreshToken({ id: uuidv7(), sessionId, tokenHash: hash, createdAt: now, expiresAt: new Date(expires) });
    return token;
  }
}
