import {
  PspMerchantByNmidDocument,
  PspMerchantByNmidViewDocument,
  type PspMerchantByNmidQuery,
  PspMerchantsByNmidDocument,
  PspMerchantsByNmidViewDocument,
} from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch, perBank } from '@rest-adapters/psp/routes/shared/bank-batch';
import { fromCopyElseOwners } from '@rest-adapters/psp/routes/shared/bank-view';

export interface LookupCall extends BankCall {
  nmid: string;
  includeOutlets: boolean;
  includeOwners: boolean;
}

type Outlet = NonNullable<PspMerchantByNmidQuery['outletByNmid']>;

const requestOf = ({ bank, nmid }: LookupCall) => ({ bankCode: bank.bankCode, nmid });

/**
 * Lookups of every bank that arrive together (cache misses only) are answered by one operation on the outlet
 * subgraph's copy of the bank view, and only those it cannot answer by the owners, one operation per bank
 * (shared/bank-view.ts). The subgraphs answer each call with its own bank's merchant or nothing
 * (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md). Whether outlets and owners are included is part of the operations, so
 * each combination batches separately.
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
        const outlets = await fromCopyElseOwners<LookupCall, Outlet>(
          calls,
          async (items) =>
            (await execute(PspMerchantsByNmidViewDocument, { requests: items.map(requestOf), includeOutlets, includeOwners }))
              .pspOutletsByNmid,
          (items) =>
            perBank(
              items,
              async (ofBank, asBank) =>
                (await asBank(PspMerchantsByNmidDocument, { requests: ofBank.map(requestOf), includeOutlets, includeOwners }))
                  .outletsByNmid,
            ),
        );
        return outlets.map((outletByNmid) => ({ outletByNmid }));
      },
    }),
  ),
);

export function lookUp(call: LookupCall): Promise<PspMerchantByNmidQuery> {
  return batches[(call.includeOutlets ? 2 : 0) + (call.includeOwners ? 1 : 0)](call);
}
