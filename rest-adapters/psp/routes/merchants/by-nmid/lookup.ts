import { PspMerchantByNmidDocument, type PspMerchantByNmidQuery, PspMerchantsByNmidDocument } from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';

export interface LookupCall extends BankCall {
  nmid: string;
  includeOutlets: boolean;
}

/**
 * Lookups of every bank that arrive together (cache misses only) are answered by one operation. Whether
 * outlets are included is part of the operation, so each setting batches separately.
 */
const batches = [false, true].map((includeOutlets) =>
  bankBatch<LookupCall, PspMerchantByNmidQuery>({
    alone: ({ runtime, nmid }) => runtime.execute(PspMerchantByNmidDocument, { nmid, includeOutlets }),
    async together(calls, execute) {
      const requests = calls.map(({ bank, nmid }) => ({ bankCode: bank.bankCode, nmid }));
      const { outletsByNmid } = await execute(PspMerchantsByNmidDocument, { requests, includeOutlets });
      // A batch sees the merchants of all its banks: each call keeps only a merchant of its own bank.
      return calls.map(({ bank }, i) => {
        const outlet = outletsByNmid[i];
        return { outletByNmid: outlet?.merchant?.bankCode === bank.bankCode ? outlet : null };
      });
    },
  }),
);

export function lookUp(call: LookupCall): Promise<PspMerchantByNmidQuery> {
  return batches[call.includeOutlets ? 1 : 0](call);
}
