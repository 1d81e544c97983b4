import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { OutletRepository } from '../outlet/outlet.repository';
import type { OutletService } from '../outlet/outlet.service';
import type { Terminal } from '../terminal/terminal.entity';
import { TerminalRepository } from '../terminal/terminal.repository';
import { toTerminalType } from '../terminal/terminal.service';
import type { PaymentTargetType } from './payment-target.type';

/**
 * Resolves a payment gateway's identifiers (core-api.md §4 transaction-status): the merchant key is a live
 * outlet's NMID, then a live outlet's MID, else — when it is a UUID — the merchant id itself; the terminal key
 * is one of that merchant's live terminals by TID, device serial number or id. (The merchant-level NMID, the
 * merchant subgraph's primary NMID, is the caller's next step when nothing matches here.)
 */
export class PaymentTargetService {
  private readonly outletRepo: OutletRepository;
  private readonly terminalRepo: TerminalRepository;

  constructor(
    em: EntityManager,
    private readonly outlets: OutletService,
  ) {
    this.outletRepo = new OutletRepository(em);
    this.terminalRepo = new TerminalRepository(em);
  }

  async resolve(merchantKey: string, terminalKey: string | null): Promise<PaymentTargetType | null> {
    const key = merchantKey.trim();
    if (!key) return null;
    const outlet = (await this.outletRepo.liveByNmid(key)) ?? (await this.outletRepo.liveByMid(key));
    let merchantId: string;
    let matchedBy: string;
    if (outlet) {
      merchantId = outlet.merchantId;
      matchedBy = outlet.nmid === key ? 'outlet_nmid' : 'outlet_mid';
    } else if (UUID_PATTERN.test(key)) {
      merchantId = key.toLowerCase();
      matchedBy = 'merchant_id';
    } else {
      return null;
    }
    const terminal = terminalKey?.trim() ? await this.terminalOf(merchantId, terminalKey.trim()) : null;
    const terminalOutlet = terminal && !outlet ? await this.outletRepo.byId(terminal.outletId) : null;
    const nmid = outlet?.nmid ?? terminalOutlet?.nmid ?? (await this.outlets.nmidOfMerchant(merchantId));
    return {
      merchant: { id: merchantId },
      matchedBy,
      outletId: outlet?.id ?? terminal?.outletId ?? null,
      nmid: nmid ?? null,
      terminal: terminal && toTerminalType(terminal),
    };
  }

  private terminalOf(merchantId: string, key: string): Promise<Terminal | null> {
    return this.terminalRepo.liveOfMerchantByKey(merchantId, key);
  }
}
