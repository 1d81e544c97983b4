import type { Execute, RouteRuntime } from '@lib/rest/route';
import {
  type PaymentTargetFieldsFragment,
  PspResolveNmidDocument,
  PspResolveNmidViewDocument,
  PspResolveNmidsDocument,
  PspResolveNmidsViewDocument,
} from '@rest-adapters/generated/operations';
import { type BankCall, perBank } from './bank-batch';
import { fromCopyElseOwners } from './bank-view';

/**
 * Events and settlements name an NMID (and maybe MID/TID); the outlet subgraph resolves it for the calling
 * bank (another bank's NMID is unknown) with the merchant from its copy of the bank view (resolve-nmid-view.graphql),
 * else the merchant subgraph adds the merchant (resolve-nmid.graphql; shared/bank-view.ts). Either way the subgraphs
 * answer an NMID with a merchant of the bank that asks, or nothing (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md). A separate
 * operation from the recording one: its answer is part of what gets recorded. The `…nmids` operations are the same
 * for a micro-batch of several banks' events: one item per event, each resolved as its own bank.
 */
type ResolvedOutlet = PaymentTargetFieldsFragment;

export interface PaymentTarget {
  merchantId: string;
  merchantStatus: string;
  categoryCode: string | null;
  /** Only from the owners (resolve-nmid.graphql): the transaction subgraph's copy has it otherwise. */
  businessScaleCode?: string | null;
  outletId: string;
  multiOutlet: boolean;
  terminalId: string | null;
  nmidStatus: string;
}

/** What an event or settlement names; the bank is the one that calls. */
export interface NmidReference {
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

/**
 * The targets of several calls' NMIDs, each resolved as the call's bank (`referenceOf` names its NMID); `execute` acts
 * for all of those banks.
 */
export async function resolvePaymentTargets<C extends BankCall>(
  execute: Execute,
  calls: C[],
  referenceOf: (call: C) => NmidReference,
): Promise<(PaymentTarget | null)[]> {
  const requestOf = (call: C) => ({ bankCode: call.bank.bankCode, nmid: referenceOf(call).nmid });
  const outlets = await fromCopyElseOwners<C, ResolvedOutlet>(
    calls,
    async (items) => (await execute(PspResolveNmidsViewDocument, { requests: items.map(requestOf) })).pspOutletsByNmid,
    (items) =>
      perBank(items, async (ofBank, asBank) => (await asBank(PspResolveNmidsDocument, { requests: ofBank.map(requestOf) })).outletsByNmid),
  );
  return calls.map((call, i) => targetOf(outlets[i], referenceOf(call)));
}

/**
 * Null when the subgraphs answered nothing (the NMID is unknown to the bank, or its merchant not visible to it), or a
 * MID sent with it does not belong to that outlet. A TID that matches none of the outlet's terminals leaves the
 * terminal unresolved (recorded as sent in the payload).
 */
function targetOf(outlet: ResolvedOutlet | null, { mid, tid }: NmidReference): PaymentTarget | null {
  if (!outlet?.merchant) return null;
  if (mid && outlet.mid && mid !== outlet.mid) return null;
  return {
    merchantId: outlet.merchant.id,
    merchantStatus: outlet.merchant.status,
    categoryCode: outlet.merchant.categoryCode,
    ...('businessScaleCode' in outlet.merchant ? { businessScaleCode: outlet.merchant.businessScaleCode as string | null } : {}),
    outletId: outlet.id,
    multiOutlet: outlet.merchant.outlets.length > 1,
    terminalId: (tid && outlet.terminals.find((t) => t.tid === tid)?.id) || null,
    nmidStatus: outlet.nmidStatus,
  };
}
