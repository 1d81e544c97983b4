import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import { Terminal } from './terminal.entity';
import type { TerminalType } from './terminal.type';

/**
 * Terminals, read through request-scoped DataLoaders. A terminal counts only while its outlet is live: a
 * soft-deleted outlet's terminals are not found, so `Terminal.outlet` always has an outlet to show.
 */
export class TerminalService {
  private readonly byId;
  private readonly byOutletId;
  private readonly primaryByMerchantId;
  private readonly byMerchantId;

  constructor(private readonly em: EntityManager) {
    this.byId = loaderByKey(
      async (ids: string[]) => {
        const rows = await this.em.getConnection().execute(
          `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.id in (?)`,
          [ids],
        );
        return rows.map((row: object) => this.em.map(Terminal, row));
      },
      (row) => row.id,
    );
    this.byOutletId = loaderGroupedByKey(
      (outletIds: string[]) => this.em.find(Terminal, { outletId: { $in: outletIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (row) => row.outletId,
    );
    this.byMerchantId = loaderGroupedByKey(
      async (merchantIds: string[]) => {
        const rows = await this.em.getConnection().execute(
          `select t.* from outlet.terminals t join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.merchant_id in (?) order by t.created_at asc, t.id asc`,
          [merchantIds],
        );
        return rows.map((row: object) => this.em.map(Terminal, row));
      },
      (row) => row.merchantId,
    );
    // The merchant's primary terminal: the most recently seen one that is not inactive, of its live outlets.
    this.primaryByMerchantId = loaderByKey(
      async (merchantIds: string[]) => {
        const rows = await this.em.getConnection().execute(
          `select distinct on (t.merchant_id) t.* from outlet.terminals t
           join outlet.outlets o on o.id = t.outlet_id and o.deleted_at is null
          where t.merchant_id in (?) and t.status <> 'inactive'
          order by t.merchant_id, t.last_seen_at desc nulls last, t.created_at desc, t.id desc`,
          [merchantIds],
        );
        return rows.map((row: object) => this.em.map(Terminal, row));
      },
      (row) => row.merchantId,
    );
  }

  async findById(id: string): Promise<TerminalType | null> {
    const terminal = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return terminal && toTerminalType(terminal);
  }

  /** Every terminal of a (live) outlet, inactive ones included, oldest first. */
  async ofOutlet(outletId: string): Promise<TerminalType[]> {
    return (await this.byOutletId.load(outletId)).map(toTerminalType);
  }

  /** Every terminal of the merchant's live outlets, oldest first (batched over merchants). */
  async ofMerchant(merchantId: string): Promise<TerminalType[]> {
    return UUID_PATTERN.test(merchantId) ? (await this.byMerchantId.load(merchantId)).map(toTerminalType) : [];
  }

  async primaryOfMerchant(merchantId: string): Promise<TerminalType | null> {
    const terminal = UUID_PATTERN.test(merchantId) ? await this.primaryByMerchantId.load(merchantId) : null;
    return terminal && toTerminalType(terminal);
  }
}

export function toTerminalType(terminal: Terminal): TerminalType {
  return {
    id: terminal.id,
    tid: terminal.tid ?? null,
    serialNumber: terminal.serialNumber ?? null,
    model: terminal.model ?? null,
    firmwareVersion: terminal.firmwareVersion ?? null,
    brandName: terminal.brandName ?? null,
    deviceTypeName: terminal.deviceTypeName ?? null,
    placementName: terminal.placementName ?? null,
    status: terminal.status,
    lastSeenAt: terminal.lastSeenAt ?? null,
    outletId: terminal.outletId,
  };
}
