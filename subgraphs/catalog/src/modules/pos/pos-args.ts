/** The `merchantId` argument of every point-of-sale field (lib/domain/access/pos-merchant.ts decides what it may be). */
export const MERCHANT_ARG = {
  nullable: true,
  description: 'Required for internal callers; a user acts for the merchant of its principal.',
};
