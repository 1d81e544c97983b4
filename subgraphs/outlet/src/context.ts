import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '../../../lib/federation/subgraph-context';
import { OutletService } from './modules/outlet/outlet.service';
import { PosOutletService } from './modules/pos-outlet/pos-outlet.service';
import { TerminalService } from './modules/terminal/terminal.service';

export function outletRequestScope(em: EntityManager) {
  return { services: { outlet: new OutletService(em), terminal: new TerminalService(em), posOutlet: new PosOutletService(em) } };
}

export type OutletContext = SubgraphContext<ReturnType<typeof outletRequestScope>>;
