import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { OutletParams, contractTime, loadScopedMerchant, outletOf } from '../partner-outlet';
import { DevicesResponse } from './schema';

const operation = loadOperation(__dirname);

interface TerminalData {
  tid: string | null;
  serialNumber: string | null;
  model: string | null;
  firmwareVersion: string | null;
  status: 'online' | 'offline' | 'inactive';
  lastSeenAt: string | null;
}

/** partner-api.md §4 outlet endpoints: every device of one outlet, inactive ones included, oldest first. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id/devices',
  summary: 'Devices of an outlet of a merchant in the calling partner’s scope',
  description: 'Scope merchant.read; enabled per credential by an operator (otherwise 403).',
  tags: ['partner: outlets'],
  schema: { params: OutletParams, response: { 200: DevicesResponse, ...errorResponses(401, 403, 404, 429) } },
  operation,
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  handle: async ({ params }, runtime, req) => {
    requireOutletsEnabled(req);
    const principal = requireScope(req.acting, 'merchant.read');
    const merchant = await loadScopedMerchant<{ id: string; outlets: { id: string; terminals: TerminalData[] }[] }>(
      runtime,
      principal,
      operation,
      params.merchant_id,
    );
    const outlet = outletOf(merchant.outlets, params.outlet_id);
    const items = outlet.terminals.map((t) => ({
      tid: t.tid,
      serial_number: t.serialNumber,
      model: t.model,
      firmware_version: t.firmwareVersion,
      status: t.status,
      last_seen_at: contractTime(principal, t.lastSeenAt),
    }));
    return principal.contract === 'A'
      ? { merchant_id: merchant.id, outlet_id: outlet.id, items }
      : { merchant_id: merchant.id, outlet_id: outlet.id, items, count: items.length };
  },
});
