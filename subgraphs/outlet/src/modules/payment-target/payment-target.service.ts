import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { Outlet } from '../outlet/outlet.entity';
import type { OutletService } from '../outlet/outlet.service';
import { Terminal } from '../terminal/terminal.entity';
import { toTerminalType } from '../terminal/terminal.service';
import type { PaymentTargetType } from './payment-target.type';

/**
 * Resolves a payment gateway's identifiers (core-api.md §4 transaction-status): the merchant key is a live
 * outlet's NMID, then a live outlet's MID, else — when it is a UUID — the merchant id itself; the terminal key
 * is one of that merchant's live terminals by TID, device serial number or id. (The merchant-level NMID, the
 * merchant subgraph's primary NMID, is the caller's next step when nothing matches here.)
 */
export class PaymentTargetService {
  constructor(
    private readonly em: EntityManager,
    private readonly outlets: OutletService,
  ) {}

  async resolve(merchantKey: string, terminalKey: string | null): Promise<PaymentTargetType | null> {
    const key = merchantKey.trim();
    if (!key) return null;
    const outlet =
      (await this.em.findOne(Outlet, { nmid: key, deletedAt: null })) ?? (await this.em.findOne(Outlet, { mid: key, deletedAt: null }));
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
    const terminalOutlet = terminal && !outlet ? await this.em.findOne(Outlet, { id: terminal.outletId }) : null;
    const nmid = outlet?.nmid ?? terminalOutlet?.nmid ?? (await this.outlets.nmidOfMerchant(merchantId));
    return {
      merchant: { id: merchantId },
      matchedBy,
      outletId: outlet?.id ?? terminal?.outletId ?? null,
      nmid: nmid ?? null,
      terminal: terminal && toTerminalType(terminal),
    };
  }

  private async terminalOf(merchantId: string, key: string): Promise<Terminal | null> {
    const rows = await this.em.getConnection().execute(
      `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
        where t.merchant_id = ? and (t.tid = ? or t.serial_number = ? or t.id::text = ?)
        order by (t.tid = ?) desc, t.created_at asc limit 1`,
      [merchantId, key, key, key.toLowerCase(), key],
    );
    return rows[0] ? this.em.map(Terminal, rows[0]) : null;
  }
}
