import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApolloServer } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import { projectRoot } from '../../lib/config/project-root';
import type { GatewayContext } from './gateway-context';

/**
 * Runs every fixed REST operation once at start-up with a warm-up context (no subgraph is called), so
 * the parse/validation cache and the query-plan cache hold them before the first real request.
 */
export async function warmUp(apollo: ApolloServer<GatewayContext>, log: FastifyBaseLogger): Promise<number> {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'gateway', 'operations.json'), 'utf8')) as {
    operations: { name: string; document: string }[];
  };
  for (const operation of manifest.operations) {
    await apollo.executeOperation(
      { query: operation.document, operationName: operation.name, variables: {} },
      { contextValue: { principal: { kind: 'anonymous' }, principalToken: '', requestId: 'warm-up', warmup: true } },
    );
  }
  log.info({ operations: manifest.operations.length }, 'query plans warmed');
  return manifest.operations.length;
}
