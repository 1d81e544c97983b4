import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../config/config';
import { isConnectionFailure } from '../errors/app-error';
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
  // A database restart can reject a library's background promise that nothing awaits (graphile-worker completing a
  // job batch as the connection drops); a lost connection is never fatal here: the pools reconnect, and requests
  // meanwhile answer 503. Any other unhandled rejection still ends the process, as Node does by default.
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionFailure(reason)) throw reason;
    app.log.warn({ err: reason }, 'database connection lost in background work; continuing');
  });
  await onStart?.(app, config);
  await listenUntilSignal(app, config, config.ports[definition.name]);
}
