import { PspMerchantByNmidDocument, type PspMerchantByNmidQuery, PspMerchantsByNmidDocument } from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';

export interface LookupCall extends BankCall {
  nmid: string;
  includeOutlets: boolean;
  includeOwners: boolean;
}

/**
 * Lookups of every bank that arrive together (cache misses only) are answered by one operation. Whether
 * outlets and owners are included is part of the operation, so each combination batches separately.
 */
const batches = [false, true].flatMap((includeOutlets) =>
  [false, true].map((includeOwners) =>
    bankBatch<LookupCall, PspMerchantByNmidQuery>({
      alone: ({ runtime, nmid }) => runtime.execute(PspMerchantByNmidDocument, { nmid, includeOutlets, includeOwners }),
      async together(calls, execute) {
        const requests = calls.map(({ bank, nmid }) => ({ bankCode: bank.bankCode, nmid }));
        const { outletsByNmid } = await execute(PspMerchantsByNmidDocument, { requests, includeOutlets, includeOwners });
        // A batch sees the merchants of all its banks: each call keeps only a merchant of its own bank.
        return calls.map(({ bank }, i) => {
          const outlet = outletsByNmid[i];
          return { outletByNmid: outlet?.merchant?.bankCode === bank.bankCode ? outlet : null };
        });
      },
    }),
  ),
);

export function lookUp(call: LookupCall): Promise<PspMerchantByNmidQuery> {
  return batches[(call.includeOutlets ? 2 : 0) + (call.includeOwners ? 1 : 0)](call);
}
