import { type FilterQuery, LockMode, type RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { MerchantRegistration } from './registration.entity';

/** Registration requests (`merchant.merchant_registrations`); an approval turns one into a merchant in one unit of work. */
export class RegistrationRepository extends Repository {
  /** A new request, written by the next flush. */
  create(data: RequiredEntityData<MerchantRegistration>): MerchantRegistration {
    return this.em.create(MerchantRegistration, data);
  }

  /** The user's request (at most one is open). */
  ofUser(userId: string): Promise<MerchantRegistration | null> {
    return this.em.findOne(MerchantRegistration, { user: userId });
  }

  /** Open requests (of one status, or both open ones), oldest first, users loaded. */
  queue(status: 'pending' | 'pending_review' | null, limit: number): Promise<MerchantRegistration[]> {
    return this.em.find(MerchantRegistration, status ? { status } : { status: { $in: ['pending', 'pending_review'] } }, {
      populate: ['user'],
      orderBy: { createdAt: 'asc', id: 'asc' },
      limit,
    });
  }

  /** The request matching `where`, locked for update (inside `transactional`), fresh from the database, user loaded. */
  async lock(where: FilterQuery<MerchantRegistration>): Promise<MerchantRegistration | null> {
    const found = await this.em.findOne(MerchantRegistration, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (found) await this.em.populate(found, ['user']);
    return found;
  }

  /** Deletes the request at the next flush. */
  remove(registration: MerchantRegistration): void {
    this.em.remove(registration);
  }
}
