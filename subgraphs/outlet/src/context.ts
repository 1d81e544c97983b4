import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import { secretBoxFor } from '@lib/crypto/secret-box';
import type { SubgraphContext } from '@lib/federation/subgraph-context';
import { OutletService } from './modules/outlet/outlet.service';
import { PosOutletService } from './modules/pos-outlet/pos-outlet.service';
import { TerminalService } from './modules/terminal/terminal.service';
import { DeviceActivityService } from './modules/device-activity/device-activity.service';
import { PaymentTargetService } from './modules/payment-target/payment-target.service';
import { PspPairingService } from './modules/psp-pairing/psp-pairing.service';
import { MerchantProfileService } from './modules/merchant-profile/merchant-profile.service';
import { SettlementAccountService } from './modules/settlement-account/settlement-account.service';

export function outletRequestScope(em: EntityManager, config: Config) {
  const outlet = new OutletService(em);
  const terminal = new TerminalService(em);
  const settlementAccount = new SettlementAccountService(em, secretBoxFor(config), config.settlementAccounts.coolingOffMs, outlet);
  return {
    services: {
      outlet,
      terminal,
      pspPairing: new PspPairingService(em),
      deviceActivity: new DeviceActivityService(em),
      paymentTarget: new PaymentTargetService(em, outlet),
      posOutlet: new PosOutletService(em),
      merchantProfile: new MerchantProfileService(em, outlet, terminal, settlementAccount),
      settlementAccount,
    },
  };
}

export type OutletContext = SubgraphContext<ReturnType<typeof outletRequestScope>>;
