import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { UUID_PATTERN, loaderByKey } from '@lib/federation/loaders';
import { SYNC_PULL_MAX_LIMIT, type SyncPage, pgTime } from '@lib/db/sync-pull';
import type { Principal } from '@lib/auth/principal';
import { readVisibility, userScopeOf, withinScope } from '@lib/domain/access/user-scope';
import { outletStaticQris, staticQrisProblem } from '@lib/domain/qris/qris-payload';
import { OutletConflictError, OutletInputError, OutletNotFoundError, asConflict } from '../outlet/outlet.errors';
import { NMID_PATTERN } from '../outlet/outlet.service';
import { type PosOutletRow, PosOutletRepository } from './pos-outlet.repository';
import type { CreatePosOutletInput, PosOutletType, UpdatePosOutletInput } from './pos-outlet.type';

const MAX_TEXT = 200;
const MAX_PAYLOAD = 1024;
const PHONE_PATTERN = /^\+?[0-9][0-9 -]{5,30}$/;

/**
 * The point-of-sale view of a merchant's outlets: the same rows banks and partners see. Every statement is
 * scoped by the merchant, so another merchant's outlet is simply not found. Unique indexes decide codes
 * (code_conflict, live outlets only) and NMIDs (nmid_taken, all outlets).
 */
export class PosOutletService {
  private readonly repo: PosOutletRepository;

  /** Live outlets by id for `_entities` batches (one query per batch). */
  private readonly liveById = loaderByKey(
    (ids: string[]) => this.repo.liveByIds(ids),
    (row) => row.id,
  );

  constructor(em: EntityManager) {
    this.repo = new PosOutletRepository(em);
  }

  async list(merchantId: string): Promise<PosOutletType[]> {
    const rows = await this.repo.liveOf(merchantId);
    return rows.map(toPosOutlet);
  }

  async get(merchantId: string, id: string): Promise<PosOutletType> {
    const row = UUID_PATTERN.test(id) ? await this.repo.liveById(merchantId, id) : undefined;
    if (!row) throw new OutletNotFoundError();
    return toPosOutlet(row);
  }

  async create(merchantId: string, input: CreatePosOutletInput): Promise<PosOutletType> {
    const code = requireText('code', input.code, 64);
    const name = requireText('name', input.name, MAX_TEXT);
    const now = new Date();
    try {
      const row = await this.repo.insert({
        id: uuidv7(),
        merchant_id: merchantId,
        code,
        name,
        address_line: optionalText('address_line', input.addressLine),
        city: optionalText('city', input.city),
        province: optionalText('province', input.province),
        phone: optionalPhone(input.phone),
        is_default: false,
        is_active: true,
        created_at: now,
        updated_at: now,
      });
      return toPosOutlet(row);
    } catch (error) {
      throw posConflict(error);
    }
  }

  /**
   * Absent fields stay; `nmid` (a valid NMID, unique) and `qris_static_payload` are corrections. A payload is kept
   * only when it is a static QRIS of the outlet's NMID (the new one when both change): TLV well-formed, CRC right,
   * NMID in the national template; "" drops the correction. A new NMID drops a stored correction not given anew.
   */
  async update(merchantId: string, id: string, input: UpdatePosOutletInput): Promise<PosOutletType> {
    const changes: Record<string, unknown> = {};
    if (input.name != null) changes.name = requireText('name', input.name, MAX_TEXT);
    if (input.addressLine != null) changes.address_line = optionalText('address_line', input.addressLine);
    if (input.city != null) changes.city = optionalText('city', input.city);
    if (input.province != null) changes.province = optionalText('province', input.province);
    if (input.phone != null) changes.phone = optionalPhone(input.phone);
    if (input.isActive != null) changes.is_active = input.isActive;
    if (input.qrisStaticPayload != null && input.qrisStaticPayload.length > MAX_PAYLOAD)
      throw new OutletInputError(`qris_static_payload must be at most ${MAX_PAYLOAD} characters`);
    if (input.nmid != null && !NMID_PATTERN.test(input.nmid)) throw new OutletInputError('nmid must be "ID" followed by 10 to 15 digits');
    if (!UUID_PATTERN.test(id)) throw new OutletNotFoundError();
    try {
      return await this.repo.sqlTransaction(async (tx) => {
        const current = await tx.lockLiveById(merchantId, id);
        if (!current) throw new OutletNotFoundError();
        // A new NMID is active from now, as when a bank assigns it (OutletService.assignNmid); the same one changes nothing.
        if (input.nmid != null && input.nmid !== current.nmid)
          Object.assign(changes, { nmid: input.nmid, nmid_status: 'active', nmid_assigned_at: new Date(), qris_static_payload: null });
        if (input.qrisStaticPayload != null)
          changes.qris_static_payload = correctionOf(input.qrisStaticPayload, input.nmid ?? current.nmid);
        return toPosOutlet(await tx.update(id, { ...changes, updated_at: new Date() }));
      });
    } catch (error) {
      throw posConflict(error);
    }
  }

  /** Soft delete: the row stays (NMIDs stay unique, devices learn of it by sync); the code becomes free. */
  async remove(merchantId: string, id: string): Promise<boolean> {
    const count = UUID_PATTERN.test(id) ? await this.repo.softDelete(merchantId, id) : 0;
    if (!count) throw new OutletNotFoundError();
    return true;
  }

  /**
   * `_entities` for PosOutlet: the outlets with their static QRIS, built from the merchant fields the gateway
   * fetched from the merchant subgraph (`@requires`). A representation names its merchant (the key is id and
   * merchantId), so an outlet of another merchant is not found; a user reaches only its own outlets.
   */
  async resolveReference(ref: PosOutletReference, principal: Principal): Promise<PosOutletType | null> {
    const row = UUID_PATTERN.test(ref.id) ? await this.liveById.load(ref.id.toLowerCase()) : null;
    if (!row || row.merchant_id !== ref.merchantId?.toLowerCase()) return null;
    const scope = userScopeOf(principal);
    if (scope && (scope.merchantId !== row.merchant_id || withinScope(scope, [row], (r) => r.id).length === 0)) return null;
    return { ...toPosOutlet(row), qrisStaticPayload: staticPayloadOf(row, ref.merchant) };
  }

  /** A page of the merchant's changed outlets; a user bound to outlets gets its outlets only (decision 0061). */
  pull(principal: Principal, merchantId: string, since: number, limit: number): Promise<SyncPage> {
    if (limit < 1 || limit > SYNC_PULL_MAX_LIMIT) throw new OutletInputError(`limit must be 1 to ${SYNC_PULL_MAX_LIMIT}`);
    if (since < 0) throw new OutletInputError('since must not be negative');
    return this.repo.pull(merchantId, since, limit, readVisibility(principal, { merchantId })?.outletIds ?? null);
  }
}

/** A PosOutlet representation: its key, and the merchant fields `qrisStaticPayload` requires. */
export interface PosOutletReference {
  id: string;
  merchantId: string;
  merchant?: {
    name?: string | null;
    categoryCode?: string | null;
    businessScaleCode?: string | null;
    address?: { city?: string | null; postalCode?: string | null } | null;
  } | null;
}

/** The outlet's static QRIS (`outletStaticQris`): built on every read from its row and the merchant's fields, so always current. */
export function staticPayloadOf(row: PosOutletRow, merchant: PosOutletReference['merchant']): string | null {
  return outletStaticQris({
    nmid: row.nmid,
    correction: row.qris_static_payload,
    city: row.city,
    postalCode: row.postal_code,
    merchant: merchant ? { ...merchant, city: merchant.address?.city, postalCode: merchant.address?.postalCode } : null,
  });
}

/** The stored correction for `payload` ("" drops it); BAD_USER_INPUT with the reason when it is not a static QRIS of `nmid`. */
function correctionOf(payload: string, nmid: string | null): string | null {
  if (payload === '') return null;
  if (!nmid) throw new OutletInputError('qris_static_payload needs an outlet with an NMID');
  const problem = staticQrisProblem(payload.trim(), nmid);
  if (problem) throw new OutletInputError(`qris_static_payload is not a static QRIS of the outlet: ${problem}`);
  return payload.trim();
}

function posConflict(error: unknown): unknown {
  const mapped = asConflict(error);
  return mapped instanceof OutletConflictError && mapped.extensions.reason === 'outlet_code_taken'
    ? new OutletConflictError('code_conflict')
    : mapped;
}

function requireText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (!text || text.length > max) throw new OutletInputError(`${field} must be 1 to ${max} characters`);
  return text;
}

function optionalText(field: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  const text = value.trim();
  if (text.length > MAX_TEXT) throw new OutletInputError(`${field} must be at most ${MAX_TEXT} characters`);
  return text || null;
}

function optionalPhone(value: string | null | undefined): string | null {
  const phone = optionalText('phone', value);
  if (phone !== null && !PHONE_PATTERN.test(phone))
    throw new OutletInputError('phone must be digits, optionally with a leading +, spaces or dashes');
  return phone;
}

function toPosOutlet(row: PosOutletRow): PosOutletType {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    code: row.code,
    name: row.name,
    addressLine: row.address_line,
    city: row.city,
    province: row.province,
    phone: row.phone,
    nmid: row.nmid,
    qrisStaticPayload: row.qris_static_payload,
    merchant: { id: row.merchant_id },
    isActive: row.is_active,
    createdAt: pgTime(row.created_at),
    updatedAt: pgTime(row.updated_at),
  };
}
