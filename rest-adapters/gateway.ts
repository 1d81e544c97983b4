import type { Config, SubgraphName } from '@lib/config/config';
import type { FastifyInstance } from 'fastify';
import { InProcessGateway } from '@gateway/src/in-process';
import { SUBGRAPHS } from '@subgraphs';

/**
 * How the REST process reaches the gateway (REST_GATEWAY, docs/decisions/0009-how-operations-execute.md): `in-process`
 * runs the gateway's planner inside this process, straight to the subgraphs; `http` uses the gateway process at
 * GATEWAY_URL (createRestApp's default). With the planner in process, REST_SUBGRAPHS=in-process (the default) runs
 * the subgraphs here too (docs/decisions/0009-how-operations-execute.md); `http` fetches from their processes.
 */
export function restGateway(
  config: Config,
  subgraphUrls?: Partial<Record<SubgraphName, string>>,
): ((app: FastifyInstance) => Promise<InProcessGateway>) | undefined {
  if (config.restGateway === 'http') return undefined;
  return (app) =>
    InProcessGateway.start({
      config,
      subgraphUrls,
      registry: app.metricsRegistry,
      logger: app.log,
      service: 'rest-adapters',
      embedded: config.restSubgraphs === 'in-process' ? SUBGRAPHS : [],
    });
}
