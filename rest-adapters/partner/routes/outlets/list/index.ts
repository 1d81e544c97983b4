import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { MerchantIdParams } from '@rest-adapters/partner/routes/partner-data';
import { PartnerMerchantOutletsDocument } from '@rest-adapters/generated/operations';
import { loadScopedMerchant, toPartnerOutlet } from '../partner-outlet';
import { OutletListResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B, DEMO_PARTNER_OUTLETS_A, DEMO_PARTNER_OUTLETS_B } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4 outlet endpoints: the merchant's live outlets, the default outlet first. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets',
  summary: 'List the outlets of a merchant in the calling partner’s scope',
  description: [
    'Scope `merchant.read`. The outlet endpoints are enabled per credential by an operator (`outlets_enabled`); that switch is checked first, so without it every outlet endpoint answers 403 `forbidden`.',
    '',
    '- The merchant’s live (not deleted) outlets: the default outlet first, then by `outlet_code`. `default_outlet_id` is the default outlet (else the oldest live outlet; null when the merchant has no outlet), as the referral merchant list gives it; integrators store it next to `merchant_id`.',
    '- One outlet object for both contracts; the wrapper follows the contract’s other lists (A with `merchant_name`, B with `count`). Times: contract A in Asia/Jakarta (+07:00), B in UTC.',
    '- 403 `forbidden`: outlet endpoints not enabled, scope missing, or the merchant is outside the partner’s scope.',
  ].join('\n'),
  tags: ['partner: outlets'],
  schema: { params: MerchantIdParams, response: { 200: OutletListResponse, ...errorResponses(401, 403, 429) } },
  operationId: 'PartnerMerchantOutlets',
  examples: {
    params: { merchant_id: DEMO.merchantId },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            merchant_id: DEMO.merchantId,
            merchant_name: 'Warung Kopi Demo',
            default_outlet_id: DEMO.outlets[0].id,
            items: DEMO_PARTNER_OUTLETS_A,
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            merchant_id: DEMO.merchantId,
            default_outlet_id: DEMO.outlets[0].id,
            items: DEMO_PARTNER_OUTLETS_B,
            count: 2,
          },
        },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    requireOutletsEnabled(ctx.request);
    const principal = requireScope(ctx.principal, 'merchant.read');
    const merchant = await loadScopedMerchant(ctx, principal, PartnerMerchantOutletsDocument, params.merchant_id, {});
    const items = merchant.outlets.map((o) => toPartnerOutlet(merchant.id, o));
    const defaultOutletId = merchant.defaultOutlet?.id ?? null;
    return principal.contract === 'A'
      ? { merchant_id: merchant.id, merchant_name: merchant.name, default_outlet_id: defaultOutletId, items }
      : { merchant_id: merchant.id, default_outlet_id: defaultOutletId, items, count: items.length };
  },
});
