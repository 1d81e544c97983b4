import type { Principal } from '../auth/principal';

/**
 * Which subgraph requests may read a streaming replica (lib/db/read-replica.ts), in one place
 * (docs/decisions/0232-read-replicas.md). Only queries, never a mutation; and of those only operators' (their console:
 * dashboards, searches, reports) and the REST operations below, whose readers accept data a few seconds old. Every
 * other request reads the primary: the bank API (intake, lookups by NMID that must see an NMID just assigned), POS
 * sync, the app (its reads follow its own writes; its transaction list is opened on a payment's notification) and
 * partner token exchange.
 */
const LAG_TOLERANT_OPERATIONS = new Set([
  // A partner's referral list: polled by the partner's systems, a merchant onboarded seconds ago shows at the next poll.
  'PartnerReferralMerchants',
  // Referral counts per status: an aggregate over the list above, same tolerance.
  'PartnerReferralSummary',
  // A merchant's scoring summary: computed over months of transactions, seconds of lag do not move it.
  'PartnerScoringSummary',
  // A merchant's transaction pages for a partner: a statement-like history, read after the fact, never to confirm a payment.
  'PartnerMerchantTransactions',
  // The same pages for one outlet.
  'PartnerOutletTransactions',
  // A merchant's outlet list for a partner: outlets change rarely and the partner has no write that it must see at once.
  'PartnerMerchantOutlets',
]);

/**
 * Whether one subgraph request (the body the gateway sends, or REST's embedded execution of it) may read the replica.
 * The gateway names each subgraph fetch `<ClientOperationName>__<subgraph>__<n>`: the client operation is the prefix.
 */
export function mayReadReplica(body: unknown, principal: Principal): boolean {
  const { query, operationName: name } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string' || !/^\s*(query\b|\{)/.test(query)) return false;
  if (principal.kind === 'operator') return true;
  return typeof name === 'string' && LAG_TOLERANT_OPERATIONS.has(name.split('__', 1)[0]);
}
