import '@lib/telemetry/register';
import { loadConfig } from '@lib/config/config';
import { listenUntilSignal } from '@lib/http/listen';
import { createGatewayApp } from './app';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createGatewayApp({ config });
  await listenUntilSignal(app, config, config.ports.gateway);
}

void main();
