import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { isSandboxNmid } from '@lib/domain/sandbox/sandbox-nmid';
import { ForbiddenError } from '@lib/errors/app-error';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import { DEFAULT_TERMINAL_MODEL, Terminal } from '../terminal/terminal.entity';
import { NMID_STATUSES, type NmidStatus, Outlet } from './outlet.entity';
import { OutletConflictError, OutletInputError, OutletNotFoundError, asConflict } from './outlet.errors';
import { type OutletRow, OutletRepository } from './outlet.repository';
import type { AssignNmidInput, ChangeNmidStatusInput, OutletType } from './outlet.type';

/** QRIS NMID: "ID" and 10 to 15 digits (the table checks it too). */
export const NMID_PATTERN = /^ID[0-9]{10,15}$/;
export const BANK_CODE_PATTERN = /^[A-Z0-9]{2,12}$/;
/** MID and TID are the acquirer's; no format is specified, so short, without spaces or punctuation beyond `._-`. */
const ACQUIRER_ID_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;
const POSTAL_CODE_PATTERN = /^[0-9]{5}$/;
const PHONE_PATTERN = /^\+62[0-9]{8,13}$/;
const MAX_TEXT_LENGTH = 200;
const MAX_REASON_LENGTH = 500;

/** An outlet `createForMerchant` creates; `withTerminal` adds its terminal (a soundbox, online, seen now). */
export interface NewOutlet {
  code: string;
  name: string;
  nmid?: string | null;
  /** Required with `nmid`: the bank that issued it. */
  bankCode?: string | null;
  mid?: string | null;
  isDefault?: boolean;
  addressLine?: string | null;
  city?: string | null;
  province?: string | null;
  postalCode?: string | null;
  phone?: string | null;
  withTerminal?: boolean;
  tid?: string | null;
}

export interface CreatedOutlet {
  id: string;
  code: string;
  nmid: string | null;
}

export interface NmidStatusChange {
  outlet: OutletType;
  previousStatus: NmidStatus;
}

/**
 * Outlets and their NMIDs. Reads go through request-scoped DataLoaders (one statement per batch of keys); the
 * lookups by NMID and by merchant return plain rows (OutletRepository), so writes load the entities they
 * change themselves, and drop the cached lookups after flushing.
 */
export class OutletService {
  private readonly repo: OutletRepository;
  private readonly byId;
  private readonly byNmid;
  private readonly byMerchantId;
  private readonly defaultByMerchantId;
  private readonly nmidByMerchantId;

  constructor(em: EntityManager) {
    this.repo = new OutletRepository(em);
    this.byId = loaderByKey(
      (ids: string[]) => this.repo.liveByIds(ids),
      (row) => row.id,
    );
    // The two reads on every bank path (a bank batch resolves dozens of NMIDs at once): plain rows, no entities.
    this.byNmid = loaderByKey(
      (nmids: string[]) => this.repo.liveRowsByNmids(nmids),
      (row) => row.nmid!,
    );
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => this.repo.liveRowsOfMerchants(merchantIds),
      (row) => row.merchantId,
    );
    // The outlet that stands for the merchant: the live default one, else the oldest live one.
    this.defaultByMerchantId = loaderByKey(
      (merchantIds: string[]) => this.repo.defaultsOf(merchantIds),
      (row) => row.merchantId,
    );
    // The same order restricted to outlets with an NMID: the default outlet's, else the oldest live outlet's.
    this.nmidByMerchantId = loaderByKey(
      (merchantIds: string[]) => this.repo.nmidsOf(merchantIds),
      (row) => row.merchant_id,
    );
  }

  async findById(id: string): Promise<OutletType | null> {
    const outlet = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return outlet && toOutletType(outlet);
  }

  /** A live outlet that must exist (e.g. the outlet of a live terminal). */
  async getById(id: string): Promise<OutletType> {
    const outlet = await this.findById(id);
    if (!outlet) throw new OutletNotFoundError();
    return outlet;
  }

  /** The live outlet with this NMID; a bank sees only NMIDs it issued, so another bank's NMID looks unknown. */
  async findByNmid(nmid: string, principal: Principal): Promise<OutletType | null> {
    const outlet = NMID_PATTERN.test(nmid) ? await this.byNmid.load(nmid) : null;
    return outlet && visibleTo(outlet, principal) ? toOutletType(outlet) : null;
  }

  /** Live outlets of a merchant, the default first. */
  async ofMerchant(merchantId: string): Promise<OutletType[]> {
    return (await this.byMerchantId.load(merchantId)).map(toOutletType);
  }

  async defaultOfMerchant(merchantId: string): Promise<OutletType | null> {
    const outlet = UUID_PATTERN.test(merchantId) ? await this.defaultByMerchantId.load(merchantId) : null;
    return outlet && toOutletType(outlet);
  }

  async nmidOfMerchant(merchantId: string): Promise<string | null> {
    const row = UUID_PATTERN.test(merchantId) ? await this.nmidByMerchantId.load(merchantId) : null;
    return row?.nmid ?? null;
  }

  // Read ahead by another statement (the bank view's), so that the reads above ask no more for these keys.
  rememberByNmid(outlet: OutletRow): void {
    if (outlet.nmid) this.byNmid.prime(outlet.nmid, outlet);
  }

  rememberOfMerchant(merchantId: string, outlets: OutletRow[]): void {
    this.byMerchantId.prime(merchantId, outlets);
  }

  rememberNmidOfMerchant(merchantId: string, nmid: string | null): void {
    this.nmidByMerchantId.prime(merchantId, nmid === null ? null : { merchant_id: merchantId, nmid });
  }

  /**
   * Gives an outlet of the merchant (its default one when none is named) an NMID of the issuing bank, active
   * from now. The same NMID again changes neither its status nor its assignment time, so retries are harmless;
   * bank code and MID follow the input. Only the internal tier-1 PSP may do this among banks. NMIDs of the sandbox
   * range are issued with sandbox outlets only (createForMerchant), never assigned (docs/decisions/0015-demo-data-and-sandbox.md).
   */
  async assignNmid(input: AssignNmidInput, principal: Principal): Promise<OutletType> {
    if (principal.kind === 'bank' && principal.tier !== 1) throw new ForbiddenError('only the tier-1 PSP assigns NMIDs');
    const nmid = requireNmid(input.nmid);
    if (isSandboxNmid(nmid)) throw new OutletInputError(SANDBOX_RANGE);
    const bankCode = requireBankCode(input.bankCode);
    const mid = input.mid == null ? undefined : requireAcquirerId('mid', input.mid);
    const outlet = await this.liveOutletOf(input.merchantId, input.outletId ?? null);
    if (outlet.nmid !== nmid) {
      // Soft-deleted outlets keep their NMIDs (the unique index covers them), so they count as holders too.
      if ((await this.repo.countNmidHolders(nmid, outlet.id)) > 0) throw new OutletConflictError('nmid_taken');
      outlet.nmid = nmid;
      outlet.nmidStatus = 'active';
      outlet.nmidAssignedAt = new Date();
      // A correction of the static QRIS named the old NMID; the payload is built from the new one.
      outlet.qrisStaticPayload = null;
    }
    outlet.nmidBankCode = bankCode;
    if (mid !== undefined) outlet.mid = mid;
    await this.flush();
    return toOutletType(outlet);
  }

  /**
   * Sets the status of an NMID as its bank decided; the same status again writes nothing. Null when the NMID
   * is unknown, or issued by another bank than the calling one.
   */
  async changeNmidStatus(input: ChangeNmidStatusInput, principal: Principal): Promise<NmidStatusChange | null> {
    if (!(NMID_STATUSES as readonly string[]).includes(input.status)) throw new OutletInputError('status must be active or suspended');
    if (input.reason != null && input.reason.length > MAX_REASON_LENGTH) {
      throw new OutletInputError(`reason must be at most ${MAX_REASON_LENGTH} characters`);
    }
    const outlet = NMID_PATTERN.test(input.nmid) ? await this.repo.liveByNmid(input.nmid) : null;
    if (!outlet || !visibleTo(outlet, principal)) return null;
    const previousStatus = outlet.nmidStatus;
    outlet.nmidStatus = input.status as NmidStatus;
    await this.flush();
    return { outlet: toOutletType(outlet), previousStatus };
  }

  /**
   * Creates a merchant's outlets (and, when asked, one terminal each) in one transaction, for operator
   * tooling. Input errors are found before anything is written; taken codes, NMIDs, MIDs, TIDs or a second
   * default outlet are conflicts decided by the unique indexes.
   */
  async createForMerchant(merchantId: string, outlets: NewOutlet[], options: { sandbox?: boolean } = {}): Promise<CreatedOutlet[]> {
    if (!UUID_PATTERN.test(merchantId)) throw new OutletInputError('merchantId must be a UUID');
    if (outlets.length === 0) throw new OutletInputError('at least one outlet is needed');
    outlets.forEach(validateNewOutlet);
    // A sandbox merchant's NMIDs are of the reserved range, a live merchant's never (docs/decisions/0015-demo-data-and-sandbox.md).
    for (const { nmid } of outlets) {
      if (nmid != null && isSandboxNmid(nmid) !== (options.sandbox ?? false))
        throw new OutletInputError(options.sandbox ? `a sandbox outlet's nmid must be ID99 followed by 13 digits` : SANDBOX_RANGE);
    }
    requireDistinct(outlets, 'code', (o) => o.code.trim());
    requireDistinct(outlets, 'nmid', (o) => o.nmid);
    requireDistinct(outlets, 'mid', (o) => o.mid);
    requireDistinct(outlets, 'tid', (o) => (o.withTerminal ? o.tid : null));
    if (outlets.filter((o) => o.isDefault).length > 1) throw new OutletInputError('at most one outlet can be the default');

    const now = new Date();
    const rows = outlets.map((o) =>
      Object.assign(new Outlet(), {
        merchantId,
        code: o.code.trim(),
        name: o.name.trim(),
        nmid: o.nmid ?? null,
        nmidBankCode: o.nmid ? o.bankCode : null,
        nmidAssignedAt: o.nmid ? now : null,
        mid: o.mid ?? null,
        isDefault: o.isDefault ?? false,
        addressLine: o.addressLine ?? null,
        city: o.city ?? null,
        province: o.province ?? null,
        postalCode: o.postalCode ?? null,
        phone: o.phone ?? null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const terminals = outlets.flatMap((o, i) =>
      o.withTerminal
        ? [
            Object.assign(new Terminal(), {
              merchantId,
              outletId: rows[i].id,
              tid: o.tid ?? null,
              model: DEFAULT_TERMINAL_MODEL,
              status: 'online',
              lastSeenAt: now,
              createdAt: now,
              updatedAt: now,
            }),
          ]
        : [],
    );
    try {
      await this.repo.insertWithTerminals(rows, terminals);
    } catch (error) {
      throw asConflict(error);
    }
    return rows.map((row) => ({ id: row.id, code: row.code, nmid: row.nmid ?? null }));
  }

  /**
   * The merchant's live default outlet, created (code PUSAT, no NMID, no terminal) when it has none: the step
   * of a registration's approval in this subgraph. Idempotent, also under concurrent retries (the one-default
   * unique index decides; the loser reads the winner's).
   */
  async ensureDefault(
    merchantId: string,
    outlet: Omit<NewOutlet, 'code' | 'isDefault' | 'nmid' | 'bankCode' | 'withTerminal'>,
  ): Promise<OutletType> {
    if (!UUID_PATTERN.test(merchantId)) throw new OutletInputError('merchantId must be a UUID');
    const existing = await this.defaultOfMerchant(merchantId);
    if (existing) return existing;
    try {
      await this.createForMerchant(merchantId, [{ ...outlet, code: 'PUSAT', isDefault: true }]);
    } catch (error) {
      if (!(error instanceof OutletConflictError)) throw error;
    }
    this.defaultByMerchantId.clearAll();
    const created = await this.defaultOfMerchant(merchantId);
    if (!created) throw new OutletNotFoundError();
    return created;
  }

  private async liveOutletOf(merchantId: string, outletId: string | null): Promise<Outlet> {
    if (!UUID_PATTERN.test(merchantId) || (outletId !== null && !UUID_PATTERN.test(outletId))) throw new OutletNotFoundError();
    const outlet =
      outletId === null ? await this.defaultByMerchantId.load(merchantId) : await this.repo.liveOfMerchant(outletId, merchantId);
    if (!outlet) throw new OutletNotFoundError();
    return outlet;
  }

  /** Writes the request's changes (nothing when nothing changed); cached lookups by NMID or merchant may be stale after it. */
  private async flush(): Promise<void> {
    try {
      await this.repo.flush();
    } catch (error) {
      throw asConflict(error);
    } finally {
      this.byNmid.clearAll();
      this.defaultByMerchantId.clearAll();
      this.nmidByMerchantId.clearAll();
      this.byMerchantId.clearAll();
    }
  }
}

const SANDBOX_RANGE = 'NMIDs of the form ID99 followed by 13 digits are reserved for sandbox outlets';

function requireNmid(nmid: string): string {
  if (!NMID_PATTERN.test(nmid)) throw new OutletInputError('nmid must be "ID" followed by 10 to 15 digits');
  return nmid;
}

function requireBankCode(bankCode: string): string {
  if (!BANK_CODE_PATTERN.test(bankCode)) throw new OutletInputError('bankCode must be 2 to 12 upper-case letters or digits');
  return bankCode;
}

function requireAcquirerId(field: 'mid' | 'tid', value: string): string {
  if (!ACQUIRER_ID_PATTERN.test(value)) throw new OutletInputError(`${field} must be 1 to 32 letters, digits, ".", "_" or "-"`);
  return value;
}

function validateNewOutlet(o: NewOutlet): void {
  const code = o.code.trim();
  const name = o.name.trim();
  if (!code || code.length > 64) throw new OutletInputError('code must be 1 to 64 characters');
  if (!name || name.length > MAX_TEXT_LENGTH) throw new OutletInputError(`name must be 1 to ${MAX_TEXT_LENGTH} characters`);
  if (o.nmid != null) {
    requireNmid(o.nmid);
    if (o.bankCode == null) throw new OutletInputError(`outlet ${code}: bankCode is required with an nmid`);
  }
  if (o.bankCode != null) requireBankCode(o.bankCode);
  if (o.mid != null) requireAcquirerId('mid', o.mid);
  if (o.tid != null) requireAcquirerId('tid', o.tid);
  if (o.postalCode != null && !POSTAL_CODE_PATTERN.test(o.postalCode)) throw new OutletInputError('postalCode must be 5 digits');
  if (o.phone != null && !PHONE_PATTERN.test(o.phone)) throw new OutletInputError('phone must be +62 followed by 8 to 13 digits');
  for (const [field, value] of [
    ['addressLine', o.addressLine],
    ['city', o.city],
    ['province', o.province],
  ] as const) {
    if (value != null && value.length > MAX_TEXT_LENGTH)
      throw new OutletInputError(`${field} must be at most ${MAX_TEXT_LENGTH} characters`);
  }
}

function requireDistinct(outlets: NewOutlet[], field: string, valueOf: (o: NewOutlet) => string | null | undefined): void {
  const values = outlets.map(valueOf).filter((v): v is string => v != null);
  if (new Set(values).size !== values.length) throw new OutletInputError(`each outlet needs its own ${field}`);
}

/** A bank sees only the NMIDs it issued, so another bank's NMID looks unknown. */
function visibleTo(outlet: OutletRow, principal: Principal): boolean {
  return principal.kind !== 'bank' || outlet.nmidBankCode === principal.bankCode;
}

function toOutletType(outlet: OutletRow): OutletType {
  return {
    id: outlet.id,
    code: outlet.code,
    name: outlet.name,
    nmid: outlet.nmid ?? null,
    nmidStatus: outlet.nmidStatus,
    nmidBankCode: outlet.nmidBankCode ?? null,
    mid: outlet.mid ?? null,
    addressLine: outlet.addressLine ?? null,
    city: outlet.city ?? null,
    province: outlet.province ?? null,
    postalCode: outlet.postalCode ?? null,
    phone: outlet.phone ?? null,
    isDefault: outlet.isDefault,
    merchant: { id: outlet.merchantId },
    createdAt: outlet.createdAt,
    updatedAt: outlet.updatedAt,
  };
}
