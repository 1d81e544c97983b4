import { Repository } from '@lib/db/repository';

/**
 * Sessions, their refresh tokens and login cancellation links (`merchant.user_sessions`, `merchant.refresh_tokens`,
 * `merchant.login_cancellations`), plain rows; a login opens its session inside the login's transaction.
 */
export class SessionRepository extends Repository {
  async insertSession(row: {
    id: string;
    userId: string;
    deviceHash: string | null;
    platformCode: string;
    deviceName: string | null;
    authMethod: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db('merchant.user_sessions').insert({
      id: row.id,
      user_id: row.userId,
      device_hash: row.deviceHash,
      platform_code: row.platformCode,
      device_name: row.deviceName,
      auth_method: row.authMethod,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    });
  }

  async insertRefreshToken(row: { id: string; sessionId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.db('merchant.refresh_tokens').insert({
      id: row.id,
      session_id: row.sessionId,
      token_hash: row.tokenHash,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    });
  }

  /** Uses the unused refresh token with this hash (one conditional update: one use wins); its session and end. */
  async useRefreshToken(tokenHash: string, now: Date): Promise<{ session_id: string; expires_at: Date } | undefined> {
    const [used] = await this.db('merchant.refresh_tokens')
      .where({ token_hash: tokenHash })
      .whereNull('used_at')
      .update({ used_at: now })
      .returning<{ session_id: string; expires_at: Date }[]>(['session_id', 'expires_at']);
    return used;
  }

  /** The session of a refresh token with this hash, used or not. */
  refreshTokenSession(tokenHash: string): Promise<{ session_id: string } | undefined> {
    return this.db('merchant.refresh_tokens').where({ token_hash: tokenHash }).first<{ session_id: string } | undefined>('session_id');
  }

  /** The live session (not revoked, not past its end) with its user's phone. */
  liveSession(sessionId: string, now: Date): Promise<{ user_id: string; phone: string; expires_at: Date } | undefined> {
    return this.db('merchant.user_sessions as s')
      .join('merchant.users as u', 'u.id', 's.user_id')
      .where('s.id', sessionId)
      .whereNull('s.revoked_at')
      .andWhere('s.expires_at', '>', now)
      .first<{ user_id: string; phone: string; expires_at: Date } | undefined>('s.user_id', 'u.phone', 's.expires_at');
  }

  /** Revokes the session unless it is; how many rows changed. */
  revoke(sessionId: string, reason: string, now: Date): Promise<number> {
    return this.db('merchant.user_sessions')
      .where({ id: sessionId })
      .whereNull('revoked_at')
      .update({ revoked_at: now, revoke_reason: reason });
  }

  byId(sessionId: string): Promise<{ id: string; user_id: string; revoked_at: Date | null; expires_at: Date } | undefined> {
    return this.db('merchant.user_sessions')
      .where({ id: sessionId })
      .first<{ id: string; user_id: string; revoked_at: Date | null; expires_at: Date } | undefined>(
        'id',
        'user_id',
        'revoked_at',
        'expires_at',
      );
  }

  /** The user and device of a session. */
  deviceOf(sessionId: string): Promise<{ user_id: string; device_hash: string | null } | undefined> {
    return this.db('merchant.user_sessions')
      .where({ id: sessionId })
      .first<{ user_id: string; device_hash: string | null }>('user_id', 'device_hash');
  }

  async insertCancellation(row: { id: string; sessionId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.db('merchant.login_cancellations').insert({
      id: row.id,
      session_id: row.sessionId,
      token_hash: row.tokenHash,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    });
  }

  /** Uses the live cancellation link with this hash; its session (undefined: none usable). */
  async useCancellation(tokenHash: string, now: Date): Promise<{ session_id: string } | undefined> {
    const [link] = await this.db('merchant.login_cancellations')
      .where({ token_hash: tokenHash })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .update({ used_at: now })
      .returning<{ session_id: string }[]>(['session_id']);
    return link;
  }
}
