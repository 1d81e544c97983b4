import { Repository } from '@lib/db/repository';

/** A challenge as a try counts it (plain row). */
export interface ChallengeRow {
  id: string;
  code_hash: string;
  attempts: number;
  email: string | null;
  device_hash: string | null;
}

/**
 * One-time password challenges (`merchant.otp_challenges`, the OTP runtime store), plain rows. Issuing runs in one
 * `sqlTransaction` under transaction-scoped advisory locks; a try is counted and a code consumed by conditional
 * updates.
 */
export class OtpRepository extends Repository {
  /** Takes the transaction-scoped advisory lock of this key (inside `sqlTransaction`). */
  async lock(key: string): Promise<void> {
    await this.rows('select pg_advisory_xact_lock(hashtext(?))', [key]);
  }

  /** Creation times of the subject's challenges since `since`, newest first. */
  recentOfSubject(purpose: string, subject: string, since: Date): Promise<{ created_at: Date }[]> {
    return this.db('merchant.otp_challenges')
      .where({ purpose, subject })
      .andWhere('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .select<{ created_at: Date }[]>('created_at');
  }

  /** Creation times of the client address's challenges since `since`, oldest first. */
  recentOfAddress(clientAddress: string, since: Date): Promise<{ created_at: Date }[]> {
    return this.db('merchant.otp_challenges')
      .where({ client_address: clientAddress })
      .andWhere('created_at', '>', since)
      .orderBy('created_at', 'asc')
      .select<{ created_at: Date }[]>('created_at');
  }

  /** Supersedes every live challenge of the subject. */
  async supersedeLive(purpose: string, subject: string, now: Date): Promise<void> {
    await this.db('merchant.otp_challenges')
      .where({ purpose, subject })
      .whereNull('consumed_at')
      .whereNull('superseded_at')
      .update({ superseded_at: now });
  }

  async insert(row: Record<string, unknown>): Promise<void> {
    await this.db('merchant.otp_challenges').insert(row);
  }

  async delete(id: string): Promise<void> {
    await this.db('merchant.otp_challenges').where({ id }).delete();
  }

  /** The challenge with this id of the subject. */
  idOf(id: string, purpose: string, subject: string): Promise<{ id: string } | undefined> {
    return this.db('merchant.otp_challenges').where({ id, purpose, subject }).first<{ id: string } | undefined>('id');
  }

  /** The subject's latest challenge. */
  latestIdOf(purpose: string, subject: string): Promise<{ id: string } | undefined> {
    return this.db('merchant.otp_challenges')
      .where({ purpose, subject })
      .orderBy('created_at', 'desc')
      .first<{ id: string } | undefined>('id');
  }

  /** Counts one try of a live challenge that has tries left (one conditional update); undefined when it cannot be tried. */
  async countTry(id: string, now: Date, maxAttempts: number): Promise<ChallengeRow | undefined> {
    const [counted] = await this.db('merchant.otp_challenges')
      .where({ id })
      .whereNull('consumed_at')
      .whereNull('superseded_at')
      .andWhere('expires_at', '>', now)
      .andWhere('attempts', '<', maxAttempts)
      .increment('attempts', 1)
      .returning<ChallengeRow[]>(['id', 'code_hash', 'attempts', 'email', 'device_hash']);
    return counted;
  }

  stateOf(id: string): Promise<{ attempts: number; consumed_at: Date | null; superseded_at: Date | null } | undefined> {
    return this.db('merchant.otp_challenges')
      .where({ id })
      .first<{ attempts: number; consumed_at: Date | null; superseded_at: Date | null }>();
  }

  /** Consumes the challenge unless it is; how many rows changed. */
  consume(id: string, now: Date): Promise<number> {
    return this.db('merchant.otp_challenges').where({ id }).whereNull('consumed_at').update({ consumed_at: now });
  }

  /** A round trip to the store (the OTP runtime status). */
  async ping(): Promise<void> {
    await this.execute('select 1');
  }
}
