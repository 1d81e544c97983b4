import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../auth/principal';

/** What every subgraph resolver receives: who acts, a request-scoped EntityManager, and the subgraph's scope. */
export type SubgraphContext<Scope = unknown> = {
  principal: Principal;
  requestId: string;
  em: EntityManager;
  log: FastifyBaseLogger;
} & Scope;
