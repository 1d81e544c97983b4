import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { outletRequestScope } from './context';
import { outletJobs } from './jobs';
import { migrations } from './migrations';
import { Outlet } from './modules/outlet/outlet.entity';
import { Terminal } from './modules/terminal/terminal.entity';
import { DeviceActivityLog } from './modules/device-activity/device-activity.entity';
import { PspPairing } from './modules/psp-pairing/psp-pairing.entity';
import { buildOutletSchema } from './schema';
import { seedDeviceDemo, seedOutletDemo } from './seed/demo.seed';
import { seedOutletSandbox } from './seed/sandbox.seed';

/** The outlet subgraph: outlets, terminals and devices, PSP pairings; NMID/MID/TID resolution. */
export const outletSubgraph: SubgraphDefinition<ReturnType<typeof outletRequestScope>> = {
  name: 'outlet',
  entities: [Outlet, Terminal, PspPairing, DeviceActivityLog],
  migrations,
  buildSchema: buildOutletSchema,
  requestScope: outletRequestScope,
  jobs: outletJobs,
  seedDemo: async (em) => ({ ...(await seedOutletDemo(em)), ...(await seedDeviceDemo(em)), ...(await seedOutletSandbox(em)) }),
};
