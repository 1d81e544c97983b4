import type { Principal } from '@lib/auth/principal';

export interface GatewayContext {
  principal: Principal;
  /** The principal signed for the subgraphs (one signature per incoming request). */
  principalToken: string;
  requestId: string;
  /** Set only by the start-up warm-up: plan and validate, never call a subgraph. */
  warmup?: boolean;
}
