import { loadOperation } from '@lib/rest/operation';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';
import type { MerchantData } from '../psp-merchant.mapper';
import type { PspMerchantByNmidData } from './mapper';

/** The single-lookup operation: also what names the route in the OpenAPI document. */
export const byNmid = loadOperation(__dirname);
const byNmids = loadOperation(__dirname, 'operation-batch.graphql');

export interface LookupCall extends BankCall {
  nmid: string;
  includeOutlets: boolean;
}

type Outlet = { merchant: (MerchantData & { bankCode: string | null }) | null } | null;

/**
 * Lookups of every bank that arrive together (cache misses only) are answered by one operation. Whether
 * outlets are included is part of the operation, so each setting batches separately.
 */
const batches = [false, true].map((includeOutlets) =>
  bankBatch<LookupCall, PspMerchantByNmidData>({
    alone: ({ runtime, nmid }) => runtime.run<PspMerchantByNmidData>(byNmid, { nmid, includeOutlets }),
    async together(calls, run) {
      const requests = calls.map(({ bank, nmid }) => ({ bankCode: bank.bankCode, nmid }));
      const { outletsByNmid } = await run<{ outletsByNmid: Outlet[] }>(byNmids, { requests, includeOutlets });
      // A batch sees the merchants of all its banks: each call keeps only a merchant of its own bank.
      return calls.map(({ bank }, i) => {
        const outlet = outletsByNmid[i];
        return { outletByNmid: outlet?.merchant?.bankCode === bank.bankCode ? outlet : null };
      });
    },
  }),
);

export function lookUp(call: LookupCall): Promise<PspMerchantByNmidData> {
  return batches[call.includeOutlets ? 1 : 0](call);
}
