import '@lib/telemetry/register';
import { loadConfig } from '@lib/config/config';
import { SCHEMA_OF, subgraphDatabaseUrl } from '@lib/db/database-urls';
import { databaseReadiness, probePool } from '@lib/db/readiness';
import { listenUntilSignal } from '@lib/http/listen';
import type { ReadinessCheck } from '@lib/http/probes';
import { createRestApp } from '@lib/rest/rest-app';
import { SUBGRAPHS } from '@subgraphs';
import { restOperations } from './gateway';
import { REST_ADAPTERS } from './index';

async function main(): Promise<void> {
  const config = loadConfig();
  // With the subgraphs in-process, /readyz checks each one's database and migrations, as their own processes do.
  const probes =
    config.restSubgraphs === 'in-process'
      ? SUBGRAPHS.map((definition) => ({ definition, pool: probePool(subgraphDatabaseUrl(config, definition.name)) }))
      : [];
  const readiness: ReadinessCheck[] = probes.map(({ definition, pool }) =>
    databaseReadiness(
      `database-${definition.name}`,
      SCHEMA_OF[definition.name],
      definition.migrations.map((migration) => migration.name),
      pool.query,
    ),
  );
  const app = await createRestApp({ config, adapters: REST_ADAPTERS, operations: restOperations(config), readiness });
  app.addHook('onClose', async () => {
    await Promise.all(probes.map(({ pool }) => pool.close()));
  });
  await listenUntilSignal(app, config, config.ports.rest);
}

void main();
