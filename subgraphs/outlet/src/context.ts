import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubgraphContext } from '@lib/federation/subgraph-context';
import { OutletService } from './modules/outlet/outlet.service';
import { PosOutletService } from './modules/pos-outlet/pos-outlet.service';
import { TerminalService } from './modules/terminal/terminal.service';
import { DeviceActivityService } from './modules/device-activity/device-activity.service';
import { PaymentTargetService } from './modules/payment-target/payment-target.service';
import { PspPairingService } from './modules/psp-pairing/psp-pairing.service';
import { MerchantProfileService } from './modules/merchant-profile/merchant-profile.service';

export function outletRequestScope(em: EntityManager) {
  const outlet = new OutletService(em);
  const terminal = new TerminalService(em);
  return {
    services: {
      outlet,
      terminal,
      pspPairing: new PspPairingService(em),
      deviceActivity: new DeviceActivityService(em),
      paymentTarget: new PaymentTargetService(em, outlet),
      posOutlet: new PosOutletService(em),
      merchantProfile: new MerchantProfileService(em, outlet, terminal),
    },
  };
}

export type OutletContext = SubgraphContext<ReturnType<typeof outletRequestScope>>;
