import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { MerchantUser, User } from './user.entity';

/**
 * App users and their memberships of merchants (`merchant.users`, `merchant.merchant_users`): entities for the
 * profile and the membership reads, plain rows (knex) for the login paths, which run in their own transactions.
 */
export class UserRepository extends Repository {
  byId(id: string): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  byPhone(phone: string): Promise<User | null> {
    return this.em.findOne(User, { phone });
  }

  /** The user's live memberships of merchants that are not deleted, newest first, merchant and bank loaded. */
  liveMembershipsOf(userId: string): Promise<MerchantUser[]> {
    return this.em.find(
      MerchantUser,
      { user: userId, revokedAt: null, merchant: { status: { $ne: 'deleted' } } },
      { populate: ['merchant', 'merchant.bank'], orderBy: { createdAt: 'desc' } },
    );
  }

  /** How many live memberships of merchants that are not deleted the user has. */
  countLiveMembershipsOf(userId: string): Promise<number> {
    return this.em.count(MerchantUser, { user: userId, revokedAt: null, merchant: { status: { $ne: 'deleted' } } });
  }

  /** The merchant's live owner memberships, users loaded. */
  ownersOf(merchantId: string): Promise<MerchantUser[]> {
    return this.em.find(MerchantUser, { merchant: merchantId, role: 'owner', revokedAt: null }, { populate: ['user'] });
  }

  /** The merchant's live memberships (any role), users loaded. */
  liveMembersOf(merchantId: string): Promise<MerchantUser[]> {
    return this.em.find(MerchantUser, { merchant: merchantId, revokedAt: null }, { populate: ['user'], orderBy: { createdAt: 'asc' } });
  }

  /** The merchant's oldest live owner membership, user loaded. */
  firstOwnerOf(merchantId: string): Promise<MerchantUser | null> {
    return this.em.findOne(
      MerchantUser,
      { merchant: merchantId, role: 'owner', revokedAt: null },
      { populate: ['user'], orderBy: { createdAt: 'asc' } },
    );
  }

  /** The live owner memberships of the user with this phone, of merchants that are not deleted, newest first. */
  ownedByPhone(phone: string): Promise<MerchantUser[]> {
    return this.em.find(
      MerchantUser,
      { user: { phone }, role: 'owner', revokedAt: null, merchant: { status: { $ne: 'deleted' } } },
      { populate: ['merchant'], orderBy: { createdAt: 'desc' } },
    );
  }

  /** The newest live owner membership of the user with this phone of a merchant that came from an approval. */
  reviewedOwnedByPhone(phone: string): Promise<MerchantUser | null> {
    return this.em.findOne(
      MerchantUser,
      { user: { phone }, role: 'owner', revokedAt: null, merchant: { reviewedAt: { $ne: null } } },
      { populate: ['merchant'], orderBy: { createdAt: 'desc' } },
    );
  }

  /** A new user, written by the next flush. */
  createUser(data: RequiredEntityData<User>): User {
    return this.em.create(User, data);
  }

  /** A new membership, written by the next flush. */
  createMembership(data: RequiredEntityData<MerchantUser>): MerchantUser {
    return this.em.create(MerchantUser, data);
  }

  /** The id and phone of the user with this phone (plain row). */
  rowByPhone(phone: string): Promise<{ id: string; phone: string } | undefined> {
    return this.db('merchant.users').where({ phone }).first<{ id: string; phone: string } | undefined>('id', 'phone');
  }

  async idByPhone(phone: string): Promise<string | null> {
    const row = await this.db('merchant.users').where({ phone }).first<{ id: string } | undefined>('id');
    return row?.id ?? null;
  }

  async phoneOf(userId: string): Promise<string | null> {
    const row = await this.db('merchant.users').where({ id: userId }).first<{ phone: string } | undefined>('phone');
    return row?.phone ?? null;
  }

  /** The user of a phone that was just verified, created if absent (race-free: insert … on conflict). */
  async upsertVerified(id: string, phone: string, now: Date): Promise<{ id: string; phone: string }> {
    const [user] = await this.db('merchant.users')
      .insert({ id, phone, phone_verified_at: now, created_at: now, updated_at: now })
      .onConflict('phone')
      .merge({ phone_verified_at: now, updated_at: now })
      .returning<{ id: string; phone: string }[]>(['id', 'phone']);
    return user;
  }

  async setVerifiedEmail(userId: string, email: string, now: Date): Promise<void> {
    await this.db('merchant.users').where({ id: userId }).update({ email, email_verified_at: now, updated_at: now });
  }
}
