import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { SuspensionDueType } from './suspension.type';

/** Operators' view of the automatic suspensions ahead (docs/graphql.md "Operators"); `npm run ops -- merchant:suspensions-due`. */
@Resolver()
export class SuspensionResolver {
  @Authorized('operator', 'internal')
  @Query(() => [SuspensionDueType], {
    description:
      'Active live merchants with an automatic suspension (kyc_expired, inactivity) due within withinDays, overdue ones included, the earliest first.',
  })
  async merchantSuspensionsDue(
    @Arg('withinDays', () => Int, { nullable: true, description: 'Days ahead; default SUSPENSION_WARNING_DAYS.' })
    withinDays: number | null,
    @Arg('first', () => Int, { defaultValue: 100, description: 'At most this many (1 to 500).' }) first: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<SuspensionDueType[]> {
    const rows = await ctx.services.suspension.listDue({ withinDays, limit: first });
    return rows.map((r) => ({
      merchantId: r.merchant_id,
      merchantCode: r.merchant_code,
      merchantName: r.merchant_name,
      bankCode: r.bank_code,
      reason: r.reason,
      dueAt: r.due_at,
      suspendsAt: r.suspends_at,
      warnedAt: r.warned_at,
      kycExpiresAt: r.kyc_expires_at,
      lastSuccessfulTransactionAt: r.last_success_at,
      activityCheckedAt: r.activity_checked_at,
    }));
  }
}
