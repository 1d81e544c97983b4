import type { Principal } from '@lib/auth/principal';

export interface GatewayContext {
  principal: Principal;
  /** The principal signed for the subgraphs (one signature per incoming request). */
  principalToken: string;
  requestId: string;
  /** The deadline of this request's subgraph fetches when a REST adapter asked for a longer one (x-timeout-ms). */
  subgraphTimeoutMs?: number;
  /** Set only by the start-up warm-up: plan and validate, never call a subgraph. */
  warmup?: boolean;
}
