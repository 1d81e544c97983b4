import { userScopeOf, withinScope } from '@lib/domain/access/user-scope';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import type { OutletType } from './outlet.type';

/** Outlet references resolve through the request's DataLoader; an app user reaches only its own outlets. */
export const outletReference = {
  Outlet: {
    async __resolveReference(ref: { id: string }, ctx: OutletContext): Promise<OutletType | null> {
      const outlet = await ctx.services.outlet.findById(ref.id);
      const scope = userScopeOf(ctx.principal);
      if (!outlet || !scope) return outlet;
      return outlet.merchant.id === scope.merchantId ? (withinScope(scope, [outlet], (o) => o.id)[0] ?? null) : null;
    },
  },
};
