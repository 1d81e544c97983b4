import type { Config, SubgraphName } from '@lib/config/config';
import type { RestAppOptions } from '@lib/rest/rest-app';
import { InProcessGateway } from '@gateway/src/in-process';

/**
 * How the REST process reaches the gateway (REST_GATEWAY, docs/decisions/0209-in-process-gateway.md): `in-process`
 * runs the gateway's planner inside this process, straight to the subgraphs; `http` uses the gateway process at
 * GATEWAY_URL (createRestApp's default).
 */
export function restGateway(config: Config, subgraphUrls?: Partial<Record<SubgraphName, string>>): RestAppOptions['gateway'] {
  if (config.restGateway === 'http') return undefined;
  return (app) =>
    InProcessGateway.start({ config, subgraphUrls, registry: app.metricsRegistry, logger: app.log, service: 'rest-adapters' });
}
