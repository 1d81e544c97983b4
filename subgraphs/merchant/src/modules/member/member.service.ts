import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { type MemberRole, type MemberScope, outletInScope, roleOutranks } from '@lib/domain/access/user-scope';
import { BadInputError, ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN, loaderGroupedByKey } from '@lib/federation/loaders';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { MERCHANT_ROLES, type MerchantUser, type User } from '../user/user.entity';
import { MemberConflictError } from './member.errors';
import { MemberRepository } from './member.repository';
import type { AppUserType, InviteMemberInput, MerchantMemberType, MerchantOwnerType, UpdateMemberInput } from './member.type';
import { maskEmail, maskPhone } from './owner-masking';

interface Assignment {
  role: MemberRole;
  outletIds: string[];
  terminalId: string | null;
}

/**
 * Members of a merchant (merchant_users) as the app manages them (docs/graphql.md "Roles"). Owners manage every
 * member; admins manage staff and viewers within their own outlets; nobody else manages members. A merchant
 * always keeps one owner. Outlet and terminal ids are checked for form only: they belong to the outlet subgraph,
 * which scopes every read by the merchant, so a foreign id grants nothing.
 */
export class MemberService {
  private readonly byMerchantId;

  private readonly repo: MemberRepository;

  constructor(em: EntityManager) {
    this.repo = new MemberRepository(em);
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => this.repo.liveMembersOf(merchantIds),
      (row) => row.merchant.id,
    );
  }

  /** Live members, oldest first (batched over merchants). */
  async ofMerchant(merchantId: string): Promise<MerchantMemberType[]> {
    if (!UUID_PATTERN.test(merchantId)) return [];
    return (await this.byMerchantId.load(merchantId)).map(toMemberType);
  }

  /** The live owners, oldest first, as a bank sees them (contacts masked; batched over merchants with ofMerchant). */
  async ownersOf(merchantId: string): Promise<MerchantOwnerType[]> {
    if (!UUID_PATTERN.test(merchantId)) return [];
    return (await this.byMerchantId.load(merchantId))
      .filter((member) => member.role === 'owner')
      .map((member) => ({
        id: member.user.id,
        fullName: member.user.fullName ?? null,
        phoneMasked: maskPhone(member.user.phone),
        emailMasked: maskEmail(member.user.email),
        role: member.role,
        since: member.createdAt,
      }));
  }

  async invite(actor: MemberScope, input: InviteMemberInput, now = new Date()): Promise<MerchantMemberType> {
    const phone = toIndonesianE164(input.phone);
    if (!phone) throw new BadInputError('phone must be an Indonesian number (08…, 628… or +628…)');
    const assignment = validAssignment(input.role, input.outletIds, input.terminalId ?? null);
    assertMayAssign(actor, assignment);
    try {
      return await this.repo.sqlTransaction(async (tx) => {
        const userId = await tx.ensureUser(uuidv7(), phone, now);
        const id = uuidv7();
        await tx.insertMember({
          id,
          merchantId: actor.merchantId,
          userId,
          role: assignment.role,
          outletIds: assignment.outletIds,
          terminalId: assignment.terminalId,
          createdAt: now,
        });
        return memberOf(tx, id);
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw new MemberConflictError('already_member', 'the phone is already a member of this merchant');
      throw error;
    }
  }

  async update(actor: MemberScope, input: UpdateMemberInput): Promise<MerchantMemberType> {
    return this.repo.sqlTransaction(async (tx) => {
      const member = await lockedMember(tx, actor, input.memberId);
      assertMayManage(actor, member);
      const terminalId = input.terminalId == null ? member.terminalId : input.terminalId === '' ? null : input.terminalId;
      const next = validAssignment(input.role ?? member.role, input.outletIds ?? member.outletIds, terminalId);
      assertMayAssign(actor, next);
      if (member.role === 'owner' && next.role !== 'owner') await assertAnotherOwner(tx, actor.merchantId, member.id);
      await tx.updateAssignment(member.id, next);
      return memberOf(tx, member.id);
    });
  }

  /** Ends a membership (kept as history with revoked_at); the person's user account stays. */
  async remove(actor: MemberScope, memberId: string, now = new Date()): Promise<MerchantMemberType> {
    return this.repo.sqlTransaction(async (tx) => {
      const member = await lockedMember(tx, actor, memberId);
      assertMayManage(actor, member);
      if (member.role === 'owner') await assertAnotherOwner(tx, actor.merchantId, member.id);
      await tx.revoke(member.id, now);
      return memberOf(tx, member.id);
    });
  }
}

/**
 * The live member of the actor's merchant. The merchant's live memberships are row-locked first, so concurrent
 * demotions or removals of owners are serialised and cannot leave the merchant without one.
 */
async function lockedMember(
  tx: MemberRepository,
  actor: MemberScope,
  memberId: string,
): Promise<Assignment & { id: string; role: MemberRole }> {
  if (!UUID_PATTERN.test(memberId)) throw new NotFoundError('member');
  const rows = await tx.lockLiveMembersOf(actor.merchantId);
  const row = rows.find((r) => r.id === memberId.toLowerCase());
  if (!row) throw new NotFoundError('member');
  return { id: row.id, role: row.role, outletIds: row.outlet_ids, terminalId: row.terminal_id };
}

async function assertAnotherOwner(tx: MemberRepository, merchantId: string, exceptId: string): Promise<void> {
  if ((await tx.countOtherOwners(merchantId, exceptId)) === 0)
    throw new MemberConflictError('last_owner', 'a merchant keeps at least one owner');
}

async function memberOf(tx: MemberRepository, id: string): Promise<MerchantMemberType> {
  const row = await tx.memberRow(id);
  return {
    id: row.id,
    role: row.role,
    outletIds: row.outlet_ids,
    terminalId: row.terminal_id,
    createdAt: new Date(row.created_at),
    user: {
      id: row.user_id,
      phone: row.phone,
      fullName: row.full_name,
      displayName: row.display_name,
      email: row.email,
      emailVerified: row.email_verified_at != null,
    },
  };
}

function validAssignment(role: string, outletIds: string[], terminalId: string | null): Assignment {
  if (!(MERCHANT_ROLES as string[]).includes(role)) throw new BadInputError(`role must be one of ${MERCHANT_ROLES.join(', ')}`);
  const ids = [...new Set(outletIds.map((id) => id.toLowerCase()))];
  if (ids.some((id) => !UUID_PATTERN.test(id))) throw new BadInputError('outletIds must be UUIDs');
  if (terminalId !== null && !UUID_PATTERN.test(terminalId)) throw new BadInputError('terminalId must be a UUID');
  if (role === 'owner' && ids.length > 0) throw new BadInputError('an owner has every outlet: give no outletIds');
  if (role === 'staff' && ids.length !== 1) throw new BadInputError('staff work at exactly one outlet');
  if (role === 'viewer' && ids.length > 1) throw new BadInputError('a viewer sees one outlet or all (no outletIds)');
  if (terminalId !== null && role !== 'staff') throw new BadInputError('only staff are limited to a device');
  return { role: role as MemberRole, outletIds: ids, terminalId: terminalId?.toLowerCase() ?? null };
}

/** The actor may manage a member holding `assignment` now (owners: anyone; admins: staff and viewers of their outlets). */
function assertMayManage(actor: MemberScope, assignment: Assignment): void {
  if (actor.role === 'owner') return;
  if (actor.role !== 'admin' || !roleOutranks(actor.role, assignment.role))
    throw new ForbiddenError(`the ${actor.role} role may not manage this member`);
  assertOutletsWithin(actor, assignment.outletIds);
}

function assertMayAssign(actor: MemberScope, assignment: Assignment): void {
  if (actor.role === 'owner') return;
  if (actor.role !== 'admin') throw new ForbiddenError(`the ${actor.role} role may not manage members`);
  if (!roleOutranks(actor.role, assignment.role)) throw new ForbiddenError('an admin may assign only the staff and viewer roles');
  assertOutletsWithin(actor, assignment.outletIds);
}

function assertOutletsWithin(actor: MemberScope, outletIds: string[]): void {
  // An admin of some outlets cannot hand out "all outlets" (empty) nor an outlet outside their own.
  if (actor.outletIds !== null && (outletIds.length === 0 || outletIds.some((id) => !outletInScope(actor, id)))) {
    throw new ForbiddenError('the outlets are outside the admin’s outlets');
  }
}

export function toAppUserType(user: User): AppUserType {
  return {
    id: user.id,
    phone: user.phone,
    fullName: user.fullName ?? null,
    displayName: user.displayName ?? null,
    email: user.email ?? null,
    emailVerified: !!user.emailVerifiedAt,
  };
}

function toMemberType(member: MerchantUser): MerchantMemberType {
  return {
    id: member.id,
    user: toAppUserType(member.user),
    role: member.role,
    outletIds: member.outletIds,
    terminalId: member.terminalId ?? null,
    createdAt: member.createdAt,
  };
}
