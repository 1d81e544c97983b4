import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../config/config';
import { listenUntilSignal } from '../http/listen';
import { type SubgraphDefinition, createSubgraphApp } from './subgraph-definition';

/**
 * Process entry of a subgraph: config, ORM, server on its port, clean stop on SIGINT/SIGTERM. `onStart` adds
 * background work before listening; it ties that work to the server's lifecycle with onReady/onClose hooks,
 * so a stop waits for it.
 */
export async function runSubgraphProcess(
  definition: SubgraphDefinition,
  onStart?: (app: FastifyInstance, config: Config) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const app = await createSubgraphApp(definition, config);
  await onStart?.(app, config);
  await listenUntilSignal(app, config, config.ports[definition.name]);
}
