import type { MerchantContext } from '@subgraphs/merchant/src/context';
import type { MerchantType } from './merchant.type';

/**
 * Federation entry for Merchant: `_entities` representations resolve through the request's DataLoader,
 * with the same scope as the root field (a bank reaching a merchant through an outlet sees only its own).
 */
export const merchantReference = {
  Merchant: {
    __resolveReference(ref: { id: string }, ctx: MerchantContext): Promise<MerchantType | null> {
      return ctx.services.merchant.findById(ref.id, ctx.principal);
    },
  },
};
