import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerOutletDevicesDocument } from '@rest-adapters/generated/operations';
import { OutletParams, loadScopedMerchant, outletOf } from '../partner-outlet';
import { DevicesResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4 outlet endpoints: every device of one outlet, inactive ones included, oldest first. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id/devices',
  summary: 'Devices of an outlet of a merchant in the calling partner’s scope',
  description: [
    'Scope `merchant.read`. The outlet endpoints are enabled per credential by an operator (`outlets_enabled`); that switch is checked first, so without it every outlet endpoint answers 403 `forbidden`.',
    '',
    '- Every device (terminal) of the outlet, inactive ones included, oldest first, with their identifiers (`tid`, `serial_number`); the internal terminal id and the payment gateway’s ids are never returned. Contract B adds `count`. Times: contract A in Asia/Jakarta (+07:00), B in UTC.',
    '- 403 `forbidden`: outlet endpoints not enabled, scope missing, or the merchant is outside the partner’s scope.',
    '- 404 `not_found`: any `outlet_id` that is not a live outlet of this merchant (another merchant’s, deleted, unknown or malformed).',
  ].join('\n'),
  tags: ['partner: outlets'],
  schema: { params: OutletParams, response: { 200: DevicesResponse, ...errorResponses(401, 403, 404, 429) } },
  operationId: 'PartnerOutletDevices',
  examples: {
    params: { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[0].id },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            merchant_id: DEMO.merchantId,
            outlet_id: DEMO.outlets[0].id,
            items: [
              {
                tid: 'TDEMO0001',
                serial_number: 'SBX1-DEMO-0001',
                model: 'QRIS Soundbox S1',
                firmware_version: '1.4.2',
                status: 'online',
                last_seen_at: '2026-11-25T09:40:02+07:00',
              },
            ],
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            merchant_id: DEMO.merchantId,
            outlet_id: DEMO.outlets[0].id,
            items: [
              {
                tid: 'TDEMO0001',
                serial_number: 'SBX1-DEMO-0001',
                model: 'QRIS Soundbox S1',
                firmware_version: '1.4.2',
                status: 'online',
                last_seen_at: '2026-11-25T02:40:02.000Z',
              },
            ],
            count: 1,
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
    const merchant = await loadScopedMerchant(ctx, principal, PartnerOutletDevicesDocument, params.merchant_id, {});
    const outlet = outletOf(merchant.outlets, params.outlet_id);
    const items = outlet.terminals.map((t) => ({
      tid: t.tid,
      serial_number: t.serialNumber,
      model: t.model,
      firmware_version: t.firmwareVersion,
      status: t.status as 'online' | 'offline' | 'inactive',
      last_seen_at: t.lastSeenAt,
    }));
    return principal.contract === 'A'
      ? { merchant_id: merchant.id, outlet_id: outlet.id, items }
      : { merchant_id: merchant.id, outlet_id: outlet.id, items, count: items.length };
  },
});
