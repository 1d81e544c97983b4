import type { Execute, RouteRuntime } from '@lib/rest/route';
import {
  type PaymentTargetFieldsFragment,
  PspResolveNmidDocument,
  PspResolveNmidViewDocument,
  PspResolveNmidsDocument,
  PspResolveNmidsViewDocument,
} from '@rest-adapters/generated/operations';
import { fromCopyElseOwners } from './bank-view';

/**
 * Events and settlements name an NMID (and maybe MID/TID); the outlet subgraph resolves it for the calling
 * bank (another bank's NMID is unknown) with the merchant from its copy of the bank view (resolve-nmid-view.graphql),
 * else the merchant subgraph adds the merchant (resolve-nmid.graphql; shared/bank-view.ts). A separate operation from
 * the recording one: its answer is part of what gets recorded. The `…nmids` operations are the same for a
 * micro-batch of several banks' events: one item per event, each resolved as its own bank.
 */
type ResolvedOutlet = PaymentTargetFieldsFragment;

export interface PaymentTarget {
  merchantId: string;
  merchantStatus: string;
  categoryCode: string | null;
  outletId: string;
  multiOutlet: boolean;
  terminalId: string | null;
  nmidStatus: string;
}

export interface NmidReference {
  bankCode: string;
  nmid: string;
  mid?: string;
  tid?: string;
}

/** The target of one NMID, resolved as the calling bank. */
export async function resolvePaymentTarget(runtime: RouteRuntime, reference: NmidReference): Promise<PaymentTarget | null> {
  const { nmid } = reference;
  const [outlet] = await fromCopyElseOwners<string, ResolvedOutlet>(
    [nmid],
    async () => [(await runtime.execute(PspResolveNmidViewDocument, { nmid })).pspOutletByNmid ?? null],
    async () => [(await runtime.execute(PspResolveNmidDocument, { nmid })).outletByNmid ?? null],
  );
  return targetOf(outlet, reference);
}

/** Targets of several NMIDs in one call, each resolved as the bank it names; `execute` acts for all of those banks. */
export async function resolvePaymentTargets(execute: Execute, references: NmidReference[]): Promise<(PaymentTarget | null)[]> {
  const outlets = await fromCopyElseOwners<{ bankCode: string; nmid: string }, ResolvedOutlet>(
    references.map(({ bankCode, nmid }) => ({ bankCode, nmid })),
    async (requests) => (await execute(PspResolveNmidsViewDocument, { requests })).pspOutletsByNmid,
    async (requests) => (await execute(PspResolveNmidsDocument, { requests })).outletsByNmid,
  );
  return references.map((reference, i) => targetOf(outlets[i], reference));
}

/**
 * Null when the NMID is unknown to the bank, its merchant is not visible to the bank (a batch sees the merchants
 * of all its banks, so the merchant's bank must be the item's), or a MID sent with it does not belong to that
 * outlet. A TID that matches none of the outlet's terminals leaves the terminal unresolved (recorded as sent in
 * the payload).
 */
function targetOf(outlet: ResolvedOutlet | null, { bankCode, mid, tid }: NmidReference): PaymentTarget | null {
  if (!outlet?.merchant || outlet.merchant.bankCode !== bankCode) return null;
  if (mid && outlet.mid && mid !== outlet.mid) return null;
  return {
    merchantId: outlet.merchant.id,
    merchantStatus: outlet.merchant.status,
    categoryCode: outlet.merchant.categoryCode,
    outletId: outlet.id,
    multiOutlet: outlet.merchant.outlets.length > 1,
    terminalId: (tid && outlet.terminals.find((t) => t.tid === tid)?.id) || null,
    nmidStatus: outlet.nmidStatus,
  };
}
