import type { EntityManager } from '@mikro-orm/postgresql';
import { toMerchantType } from '../merchant/merchant.service';
import type { MerchantMembershipType } from './membership.type';
import type { MerchantUser, User } from './user.entity';
import { UserRepository } from './user.repository';

/**
 * Order of preference when a user belongs to several merchants: a live one before a sandbox one (a live user is never
 * switched into the sandbox, docs/decisions/0015-demo-data-and-sandbox.md), then the active one, then the newest.
 */
const STATUS_RANK: Record<string, number> = { active: 0, suspended: 1, inactive: 2, draft: 3 };

export class MembershipService {
  private readonly repo: UserRepository;

  constructor(em: EntityManager) {
    this.repo = new UserRepository(em);
  }

  /** The user with this id. */
  userOf(userId: string): Promise<User | null> {
    return this.repo.byId(userId);
  }

  /**
   * The merchant a user acts for: its live membership of a merchant that is not deleted, preferring a live (not
   * sandbox) merchant, then an active one, then the most recent membership. Null when the user belongs to none.
   */
  async currentOf(userId: string): Promise<MerchantMembershipType | null> {
    const best = await this.currentRowOf(userId);
    if (!best) return null;
    return { merchant: toMerchantType(best.merchant), role: best.role, outletIds: best.outletIds, terminalId: best.terminalId ?? null };
  }

  /** The membership row behind currentOf, its merchant (and bank) loaded. */
  async currentRowOf(userId: string): Promise<MerchantUser | null> {
    const rows = await this.repo.liveMembershipsOf(userId);
    const rank = (row: MerchantUser) => (row.merchant.sandbox ? 10 : 0) + (STATUS_RANK[row.merchant.status] ?? 9);
    return rows.sort((a, b) => rank(a) - rank(b))[0] ?? null;
  }
}
