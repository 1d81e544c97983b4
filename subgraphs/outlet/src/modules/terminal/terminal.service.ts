import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import { type TerminalRow, TerminalRepository } from './terminal.repository';
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

  private readonly repo: TerminalRepository;

  constructor(em: EntityManager) {
    this.repo = new TerminalRepository(em);
    this.byId = loaderByKey(
      (ids: string[]) => this.repo.liveByIds(ids),
      (row) => row.id,
    );
    this.byOutletId = loaderGroupedByKey<string, TerminalRow>(
      (outletIds: string[]) => this.repo.ofOutlets(outletIds),
      (row) => row.outletId,
    );
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => this.repo.liveOfMerchants(merchantIds),
      (row) => row.merchantId,
    );
    // The merchant's primary terminal: the most recently seen one that is not inactive, of its live outlets.
    this.primaryByMerchantId = loaderByKey<string, TerminalRow>(
      (merchantIds: string[]) => this.repo.primariesOf(merchantIds),
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

  // Read ahead by another statement (the bank view's), so that `ofOutlet` and `primaryOfMerchant` ask no more.
  rememberOfOutlet(outletId: string, terminals: TerminalRow[]): void {
    this.byOutletId.prime(outletId, terminals);
  }

  rememberPrimary(merchantId: string, terminal: TerminalRow | null): void {
    this.primaryByMerchantId.prime(merchantId, terminal);
  }
}

export function toTerminalType(terminal: TerminalRow): TerminalType {
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
