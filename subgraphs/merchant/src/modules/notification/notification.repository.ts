import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';

/** A recorded message as dev:outbox lists it (plain row). */
export interface OutboxRow {
  channel: string;
  recipient: string;
  template: string;
  parameters: Record<string, unknown>;
  status: string;
  created_at: Date;
}

/** Push tokens and the sent-message log (`merchant.push_tokens`, `merchant.notification_messages`), plain rows. */
export class NotificationRepository extends Repository {
  /** Which of `userIds` have a live push token (one query for a whole recipient list). */
  async usersWithLiveTokens(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db('merchant.push_tokens')
      .whereIn('user_id', [...userIds])
      .whereNull('invalidated_at')
      .distinct<{ user_id: string }[]>('user_id');
    return new Set(rows.map((r) => r.user_id));
  }

  /** The user's live push tokens (all devices, or all but one), with the user's phone. */
  liveTokensOf(userId: string, exceptDeviceHash?: string): Promise<{ id: string; token: string; phone: string }[]> {
    const query = this.db('merchant.push_tokens as t')
      .join('merchant.users as u', 'u.id', 't.user_id')
      .where('t.user_id', userId)
      .whereNull('t.invalidated_at')
      .select<{ id: string; token: string; phone: string }[]>('t.id', 't.token', 'u.phone');
    if (exceptDeviceHash) query.whereNot('t.device_hash', exceptDeviceHash);
    return query;
  }

  /** The token, if it is still live and still the user's (a queued push goes nowhere else). */
  async liveToken(id: string, userId: string): Promise<{ id: string; token: string; phone: string } | undefined> {
    const [row] = await this.rows<{ id: string; token: string; phone: string }>(
      `select t.id, t.token, u.phone from merchant.push_tokens t join merchant.users u on u.id = t.user_id
       where t.id = ? and t.user_id = ? and t.invalidated_at is null`,
      [id, userId],
    );
    return row;
  }

  /** Jobs on this repository's connection (in its transaction, when it has one). */
  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }

  /** How many live push tokens the user has (on every device but `exceptDeviceHash`, when given). */
  async countLiveTokensOf(userId: string, exceptDeviceHash: string | null): Promise<number> {
    const others = await this.db('merchant.push_tokens')
      .where({ user_id: userId })
      .whereNull('invalidated_at')
      .modify((q) => (exceptDeviceHash ? q.whereNot({ device_hash: exceptDeviceHash }) : q))
      .count<{ count: string }[]>({ count: '*' });
    return Number(others[0].count);
  }

  async invalidateToken(id: string, now: Date): Promise<void> {
    await this.db('merchant.push_tokens').where({ id }).whereNull('invalidated_at').update({ invalidated_at: now });
  }

  /**
   * Registers a device's push token (inside `sqlTransaction`): the token leaves any other user or device, then the
   * device's row takes it (and is revived).
   */
  async registerToken(row: {
    id: string;
    userId: string;
    deviceHash: string;
    deviceName: string | null;
    token: string;
    now: Date;
  }): Promise<void> {
    await this.db('merchant.push_tokens')
      .where({ token: row.token })
      .andWhere((q) => q.whereNot({ user_id: row.userId }).orWhereNot({ device_hash: row.deviceHash }))
      .delete();
    await this.db('merchant.push_tokens')
      .insert({
        id: row.id,
        user_id: row.userId,
        device_hash: row.deviceHash,
        device_name: row.deviceName,
        token: row.token,
        created_at: row.now,
        updated_at: row.now,
      })
      .onConflict(['user_id', 'device_hash'])
      .merge({ token: row.token, device_name: row.deviceName, updated_at: row.now, invalidated_at: null });
  }

  /**
   * Moves a messaging message (not the log provider's) to `status` when `rankCase` (a SQL case over `status`) ranks
   * its current status below `rank`; how many rows changed.
   */
  advanceStatus(
    providerMessageId: string,
    update: { status: string; at: Date; error: string | null },
    rankCase: string,
    rank: number,
    logProvider: string,
  ): Promise<number> {
    return this.db('merchant.notification_messages')
      .where({ provider_message_id: providerMessageId, channel: 'messaging' })
      .whereNot('provider', logProvider)
      .whereRaw(`(case status ${rankCase} else 99 end) < ?`, [rank])
      .update({ status: update.status, status_at: update.at, error: update.error });
  }

  /** The newest recorded messages, optionally of one phone. */
  outbox(filter: { phone: string | null; limit: number }): Promise<OutboxRow[]> {
    const query = this.db('merchant.notification_messages')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit)
      .select<OutboxRow[]>('channel', 'recipient', 'template', 'parameters', 'status', 'created_at');
    if (filter.phone) query.where({ phone: filter.phone });
    return query;
  }

  async insertMessage(row: Record<string, unknown>): Promise<void> {
    await this.db('merchant.notification_messages').insert(row);
  }
}
