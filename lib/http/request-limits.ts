/**
 * Every request-body limit and per-route deadline of the platform, in one place, sized so that each documented
 * maximum fits with room at every hop (REST adapter → gateway → subgraph). See
 * docs/decisions/0008-request-size-and-time-limits.md.
 *
 * Sizing: the largest documented request is a sync push of 500 items (core-api.md §8). A sales order with 10
 * lines and 3 payments is about 2.6 kB of JSON, so 500 of them are about 1.3 MB; the push route takes 8 MiB (an
 * average of 16 KiB, about 100 lines, per item). The adapter forwards the body as GraphQL variables of about the
 * same size, so the gateway takes twice that from the adapters' service principal, and the subgraphs a little more
 * than the gateway (a query plan forwards the variables with its own document).
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** The REST adapters' default body limit (every route but those in REST_ROUTE_BODY_LIMITS). */
export const REST_BODY_LIMIT = 1 * MiB;

/** The sync push (core-api.md §8: at most 500 items, each a whole sales order). */
export const SYNC_PUSH_BODY_LIMIT = 8 * MiB;

/** The sync push's deadline for its one gateway call (500 orders in one transaction, item by item). */
export const SYNC_PUSH_TIMEOUT_MS = 45_000;

/** The gateway's body limit for the REST adapters' service principal (checked after its token is verified). */
export const GATEWAY_SERVICE_BODY_LIMIT = 2 * SYNC_PUSH_BODY_LIMIT;

/** The gateway's body limit for every other caller (app users, operators, anonymous). */
export const GATEWAY_BODY_LIMIT = 256 * KiB;

/** The subgraphs' body limit: above anything the gateway lets through, with room for a query plan's document. */
export const SUBGRAPH_BODY_LIMIT = GATEWAY_SERVICE_BODY_LIMIT + MiB;

/**
 * Header by which the REST adapter asks the gateway for a longer deadline than its default (a service principal
 * only, at most MAX_CALL_TIMEOUT_MS); the gateway passes it on to its subgraph fetches.
 */
export const CALL_TIMEOUT_HEADER = 'x-timeout-ms';

/** The default deadline of a gateway → subgraph fetch. */
export const SUBGRAPH_FETCH_TIMEOUT_MS = 10_000;

/** The longest deadline a caller may ask for with CALL_TIMEOUT_HEADER. */
export const MAX_CALL_TIMEOUT_MS = 60_000;

/** A deadline asked for with CALL_TIMEOUT_HEADER, within bounds; undefined when absent or unreadable. */
export function requestedTimeoutMs(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || !/^[0-9]{1,9}$/.test(header)) return undefined;
  return Math.min(Math.max(Number(header), 100), MAX_CALL_TIMEOUT_MS);
}

/**
 * How deeply JSON may nest (objects and arrays), in a REST body and in GraphQL variables. The deepest documented body
 * (a sync push: items, lines, modifiers) nests 5 levels; anything deeper than this is refused with 400 before it is
 * read further (docs/decisions/0007-input-validation-and-bounds.md).
 */
export const MAX_JSON_DEPTH = 64;

/** How deeply GraphQL variables may nest: a REST body (MAX_JSON_DEPTH) travels inside them a few levels down. */
export const GRAPHQL_VARIABLES_MAX_DEPTH = 2 * MAX_JSON_DEPTH;
