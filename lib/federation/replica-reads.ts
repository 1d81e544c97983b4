import type { Principal } from '../auth/principal';

/**
 * Which subgraph requests may read a streaming replica (lib/db/read-replica.ts), in one place
 * (docs/decisions/0228-database-high-availability.md). Only queries, never a mutation; and of those only operators'
 * queries of the merchant subgraph (their console's searches, review queues, bank, partner and webhook lists) and the
 * transaction subgraph's part of the partner operations below: transaction history, whose readers accept data a few
 * seconds old. A read that writes cannot go to a replica (which refuses writes): the scoring figures fill the daily
 * rollups they lack, so neither the scoring summary nor operators' transaction queries are listed. The partner's scope
 * is decided in the merchant subgraph's part of the partner operations, which reads the primary, so a consent revoked a
 * moment ago is never honoured from a lagging copy. Every other request reads the primary: the bank API (intake,
 * lookups by NMID that must see an NMID just assigned), POS sync, the app (its reads follow its own writes; its
 * transaction list is opened on a payment's notification) and partner token exchange.
 */
const LAG_TOLERANT_OPERATIONS = new Set([
  // A merchant's transaction pages for a partner: a statement-like history, read after the fact, never to confirm a payment.
  'PartnerMerchantTransactions',
  // The same pages for one outlet.
  'PartnerOutletTransactions',
]);
/** The subgraph whose part of those operations may read the replica. */
const LAG_TOLERANT_SUBGRAPH = 'transaction';
/** The subgraph whose part of operators' queries may read the replica. */
const OPERATORS_SUBGRAPH = 'merchant';

/**
 * Whether one subgraph request (the body the gateway sends, or REST's embedded execution of it) may read the replica.
 * The gateway names each subgraph fetch `<ClientOperationName>__<subgraph>__<n>`.
 */
export function mayReadReplica(body: unknown, principal: Principal): boolean {
  const { query, operationName: name } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string' || !/^\s*(query\b|\{)/.test(query)) return false;
  if (typeof name !== 'string') return false;
  const [operation, subgraph] = name.split('__', 2);
  if (principal.kind === 'operator') return subgraph === OPERATORS_SUBGRAPH;
  return subgraph === LAG_TOLERANT_SUBGRAPH && LAG_TOLERANT_OPERATIONS.has(operation);
}
