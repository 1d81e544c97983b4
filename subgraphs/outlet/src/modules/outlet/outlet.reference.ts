import type { OutletContext } from '../../context';
import type { OutletType } from './outlet.type';

export const outletReference = {
  Outlet: {
    __resolveReference(ref: { id: string }, ctx: OutletContext): Promise<OutletType | null> {
      return ctx.services.outlet.findById(ref.id);
    },
  },
};
