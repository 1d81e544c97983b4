import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { DeviceInfo, DeviceService } from '../device/device.service';
import { newOpaqueToken, opaqueTokenHash } from './session-token';
import { InvalidCancelTokenError, InvalidRefreshTokenError, RefreshTokenReusedError } from './session.errors';

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
  constructor(
    private readonly em: EntityManager,
    private readonly devices: DeviceService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Opens a session with its first refresh token, inside the caller's transaction. */
  async open(db: Knex, user: { id: string; phone: string }, device: DeviceInfo, method: AuthMethod): Promise<SessionGrant> {
    const now = this.clock();
    const sessionId = uuidv7();
    await db('merchant.user_sessions').insert({
      id: sessionId,
      user_id: user.id,
      device_hash: device.deviceHash,
      platform_code: device.platformCode,
      device_name: device.deviceName,
      auth_method: method,
      created_at: now,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_SECS * 1000),
    });
    const refreshToken = await this.issueRefreshToken(db, sessionId, new Date(now.getTime() + SESSION_LIFETIME_SECS * 1000));
    return { sessionId, userId: user.id, phone: user.phone, refreshToken };
  }

  async refresh(refreshToken: string): Promise<SessionGrant> {
    const knex = this.em.getKnex();
    const now = this.clock();
    const hash = opaqueTokenHash(refreshToken);
    const [used] = await knex('merchant.refresh_tokens')
      .where({ token_hash: hash })
      .whereNull('used_at')
      .update({ used_at: now })
      .returning<{ session_id: string; expires_at: Date }[]>(['session_id', 'expires_at']);
    if (!used) {
      const known = await knex('merchant.refresh_tokens')
        .where({ token_hash: hash })
        .first<{ session_id: string } | undefined>('session_id');
      if (!known) throw new InvalidRefreshTokenError();
      await this.revoke(known.session_id, 'refresh_token_reuse');
      throw new RefreshTokenReusedError();
    }
    const session = await knex('merchant.user_sessions as s')
      .join('merchant.users as u', 'u.id', 's.user_id')
      .where('s.id', used.session_id)
      .whereNull('s.revoked_at')
      .andWhere('s.expires_at', '>', now)
      .first<{ user_id: string; phone: string; expires_at: Date } | undefined>('s.user_id', 'u.phone', 's.expires_at');
    if (!session || new Date(used.expires_at) <= now) throw new InvalidRefreshTokenError();
    const next = await this.issueRefreshToken(knex, used.session_id, new Date(session.expires_at));
    return { sessionId: used.session_id, userId: session.user_id, phone: session.phone, refreshToken: next };
  }

  /** Ends a session (idempotent); its refresh tokens and access tokens stop working. */
  async revoke(sessionId: string, reason: string, db: Knex = this.em.getKnex()): Promise<boolean> {
    const updated = await db('merchant.user_sessions')
      .where({ id: sessionId })
      .whereNull('revoked_at')
      .update({ revoked_at: this.clock(), revoke_reason: reason });
    return updated > 0;
  }

  /** Whether a session is live (not revoked, not past its end), and whose it is. */
  async status(sessionId: string): Promise<{ id: string; userId: string; active: boolean } | null> {
    if (!UUID_PATTERN.test(sessionId)) return null;
    const row = await this.em
      .getKnex()('merchant.user_sessions')
      .where({ id: sessionId })
      .first<{ id: string; user_id: string; revoked_at: Date | null; expires_at: Date } | undefined>(
        'id',
        'user_id',
        'revoked_at',
        'expires_at',
      );
    if (!row) return null;
    return { id: row.id, userId: row.user_id, active: !row.revoked_at && new Date(row.expires_at) > this.clock() };
  }

  /** A single-use link (login_alert) that cancels this session's login; the token is returned once. */
  async cancelLink(sessionId: string): Promise<string> {
    const now = this.clock();
    const { token, hash } = newOpaqueToken('dl');
    await this.em
      .getKnex()('merchant.login_cancellations')
      .insert({
        id: uuidv7(),
        session_id: sessionId,
        token_hash: hash,
        created_at: now,
        expires_at: new Date(now.getTime() + CANCEL_LINK_LIFETIME_SECS * 1000),
      });
    return token;
  }

  /** Uses a cancel link: the session is revoked and its device no longer trusted. */
  async cancelLogin(token: string): Promise<void> {
    if (!/^dl_[A-Za-z0-9_-]{43}$/.test(token)) throw new InvalidCancelTokenError();
    const now = this.clock();
    await this.em.getKnex().transaction(async (trx) => {
      const [link] = await trx('merchant.login_cancellations')
        .where({ token_hash: opaqueTokenHash(token) })
        .whereNull('used_at')
        .andWhere('expires_at', '>', now)
        .update({ used_at: now })
        .returning<{ session_id: string }[]>(['session_id']);
      if (!link) throw new InvalidCancelTokenError();
      const session = await trx('merchant.user_sessions')
        .where({ id: link.session_id })
        .first<{ user_id: string; device_hash: string | null }>('user_id', 'device_hash');
      await this.revoke(link.session_id, 'cancelled_by_user', trx);
      if (session?.device_hash) await this.devices.untrust(trx, session.user_id, session.device_hash);
    });
  }

  private async issueRefreshToken(db: Knex, sessionId: string, sessionEnd: Date): Promise<string> {
    const now = this.clock();
    const { token, hash } = newOpaqueToken('rt');
    const expires = Math.min(now.getTime() + REFRESH_TOKEN_LIFETIME_SECS * 1000, sessionEnd.getTime());
    await db('merchant.refresh_tokens').insert({
      id: uuidv7(),
      session_id: sessionId,
      token_hash: hash,
      created_at: now,
      expires_at: new Date(expires),
    });
    return token;
  }
}
