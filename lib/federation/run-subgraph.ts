import { loadConfig } from '../config/config';
import { listenUntilSignal } from '../http/listen';
import { type SubgraphDefinition, createSubgraphApp } from './subgraph-definition';

/** Process entry of a subgraph: config, ORM, server on its port, clean stop on SIGINT/SIGTERM. */
export async function runSubgraphProcess(definition: SubgraphDefinition): Promise<void> {
  const config = loadConfig();
  const app = await createSubgraphApp(definition, config);
  await listenUntilSignal(app, config.host, config.ports[definition.name]);
}
