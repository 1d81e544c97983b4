import { Repository } from '@lib/db/repository';
import type { MemberRole } from '@lib/domain/access/user-scope';
import { MerchantUser } from '../user/user.entity';

/** A membership with its user's fields (plain row). */
export interface MemberRow {
  id: string;
  role: MemberRole;
  outlet_ids: string[];
  terminal_id: string | null;
  created_at: Date | string;
  user_id: string;
  phone: string;
  full_name: string | null;
  display_name: string | null;
  email: string | null;
  email_verified_at: Date | string | null;
}

/**
 * Members of merchants as the app manages them (`merchant.merchant_users`, and `merchant.users` for invitations):
 * entities for the batched reads, plain rows (knex) for the changes, each in one `sqlTransaction`.
 */
export class MemberRepository extends Repository {
  /** The live members of these merchants, oldest first, users loaded. */
  liveMembersOf(merchantIds: string[]): Promise<MerchantUser[]> {
    return this.em.find(
      MerchantUser,
      { merchant: { $in: merchantIds }, revokedAt: null },
      { populate: ['user'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
  }

  /** The id of the user with this phone, created (without a verified phone) when there is none. */
  async ensureUser(id: string, phone: string, now: Date): Promise<string> {
    await this.rows(`insert into merchant.users (id, phone, created_at, updated_at) values (?, ?, ?, ?) on conflict (phone) do nothing`, [
      id,
      phone,
      now,
      now,
    ]);
    const [{ id: userId }] = (await this.db('merchant.users').where({ phone }).select('id')) as { id: string }[];
    return userId;
  }

  async insertMember(row: {
    id: string;
    merchantId: string;
    userId: string;
    role: MemberRole;
    outletIds: string[];
    terminalId: string | null;
    createdAt: Date;
  }): Promise<void> {
    await this.db('merchant.merchant_users').insert({
      id: row.id,
      merchant_id: row.merchantId,
      user_id: row.userId,
      role: row.role,
      outlet_ids: row.outletIds,
      terminal_id: row.terminalId,
      created_at: row.createdAt,
    });
  }

  /** The merchant's live memberships, locked for update in id order (inside `sqlTransaction`). */
  async lockLiveMembersOf(
    merchantId: string,
  ): Promise<{ id: string; role: MemberRole; outlet_ids: string[]; terminal_id: string | null }[]> {
    return this.rows(
      `select id, role, outlet_ids, terminal_id from merchant.merchant_users where merchant_id = ? and revoked_at is null order by id for update`,
      [merchantId],
    );
  }

  /** How many live owners the merchant has besides `exceptId`. */
  async countOtherOwners(merchantId: string, exceptId: string): Promise<number> {
    const [{ count }] = (await this.db('merchant.merchant_users')
      .where({ merchant_id: merchantId, role: 'owner' })
      .whereNull('revoked_at')
      .whereNot('id', exceptId)
      .count({ count: '*' })) as { count: string }[];
    return Number(count);
  }

  async updateAssignment(id: string, assignment: { role: MemberRole; outletIds: string[]; terminalId: string | null }): Promise<void> {
    await this.db('merchant.merchant_users')
      .where({ id })
      .update({ role: assignment.role, outlet_ids: assignment.outletIds, terminal_id: assignment.terminalId });
  }

  async revoke(id: string, now: Date): Promise<void> {
    await this.db('merchant.merchant_users').where({ id }).update({ revoked_at: now });
  }

  async memberRow(id: string): Promise<MemberRow> {
    const [row] = (await this.db('merchant.merchant_users as mu')
      .join('merchant.users as u', 'u.id', 'mu.user_id')
      .where('mu.id', id)
      .select(
        'mu.id',
        'mu.role',
        'mu.outlet_ids',
        'mu.terminal_id',
        'mu.created_at',
        'u.id as user_id',
        'u.phone',
        'u.full_name',
        'u.display_name',
        'u.email',
        'u.email_verified_at',
      )) as MemberRow[];
    return row;
  }
}
