import '@lib/telemetry/register';
import { loadConfig } from '@lib/config/config';
import { listenUntilSignal } from '@lib/http/listen';
import { createRestApp } from '@lib/rest/rest-app';
import { restOperations } from './gateway';
import { REST_ADAPTERS } from './index';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createRestApp({ config, adapters: REST_ADAPTERS, operations: restOperations(config) });
  await listenUntilSignal(app, config, config.ports.rest);
}

void main();
