import type { MerchantContext } from '../../context';
import type { MerchantType } from './merchant.type';

/** Federation entry for Merchant: `_entities` representations resolve through the request's DataLoader. */
export const merchantReference = {
  Merchant: {
    __resolveReference(ref: { id: string }, ctx: MerchantContext): Promise<MerchantType | null> {
      return ctx.services.merchant.findById(ref.id);
    },
  },
};
