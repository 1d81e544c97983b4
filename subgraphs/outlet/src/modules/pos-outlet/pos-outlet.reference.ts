import type { OutletContext } from '@subgraphs/outlet/src/context';
import type { PosOutletReference } from './pos-outlet.service';
import type { PosOutletType } from './pos-outlet.type';

/** PosOutlet representations (with the merchant fields `qrisStaticPayload` requires) resolve in one query per batch. */
export const posOutletReference = {
  PosOutlet: {
    __resolveReference(ref: PosOutletReference, ctx: OutletContext): Promise<PosOutletType | null> {
      return ctx.services.posOutlet.resolveReference(ref, ctx.principal);
    },
  },
};
