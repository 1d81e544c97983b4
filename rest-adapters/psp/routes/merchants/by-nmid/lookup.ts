import {
  PspMerchantByNmidDocument,
  PspMerchantByNmidViewDocument,
  type PspMerchantByNmidQuery,
  PspMerchantsByNmidDocument,
  PspMerchantsByNmidViewDocument,
} from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';
import { fromCopyElseOwners } from '@rest-adapters/psp/routes/shared/bank-view';

export interface LookupCall extends BankCall {
  nmid: string;
  includeOutlets: boolean;
  includeOwners: boolean;
}

type Outlet = NonNullable<PspMerchantByNmidQuery['outletByNmid']>;

/**
 * Lookups of every bank that arrive together (cache misses only) are answered by one operation on the outlet
 * subgraph's copy of the bank view, and only those it cannot answer by a second one on the owners (shared/bank-view.ts).
 * Whether outlets and owners are included is part of the operations, so each combination batches separately.
 */
const batches = [false, true].flatMap((includeOutlets) =>
  [false, true].map((includeOwners) =>
    bankBatch<LookupCall, PspMerchantByNmidQuery>({
      async alone({ runtime, nmid }) {
        const variables = { nmid, includeOutlets, includeOwners };
        const [outletByNmid] = await fromCopyElseOwners<string, Outlet>(
          [nmid],
          async () => [(await runtime.execute(PspMerchantByNmidViewDocument, variables)).pspOutletByNmid ?? null],
          async () => [(await runtime.execute(PspMerchantByNmidDocument, variables)).outletByNmid ?? null],
        );
        return { outletByNmid };
      },
      async together(calls, execute) {
        const requests = calls.map(({ bank, nmid }) => ({ bankCode: bank.bankCode, nmid }));
        const outlets = await fromCopyElseOwners<(typeof requests)[number], Outlet>(
          requests,
          async (items) =>
            (await execute(PspMerchantsByNmidViewDocument, { requests: items, includeOutlets, includeOwners })).pspOutletsByNmid,
          async (items) => (await execute(PspMerchantsByNmidDocument, { requests: items, includeOutlets, includeOwners })).outletsByNmid,
        );
        // A batch sees the merchants of all its banks: each call keeps only a merchant of its own bank.
        return calls.map(({ bank }, i) => {
          const outlet = outlets[i];
          return { outletByNmid: outlet?.merchant?.bankCode === bank.bankCode ? outlet : null };
        });
      },
    }),
  ),
);

export function lookUp(call: LookupCall): Promise<PspMerchantByNmidQuery> {
  return batches[(call.includeOutlets ? 2 : 0) + (call.includeOwners ? 1 : 0)](call);
}
