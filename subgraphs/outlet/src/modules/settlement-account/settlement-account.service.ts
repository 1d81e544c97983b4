import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '@lib/auth/principal';
import type { SecretBox } from '@lib/crypto/secret-box';
import { SETTLEMENT_ACCOUNT_CHANGED_TASK, type SettlementAccountChangedPayload } from '@lib/domain/jobs/tasks';
import { BadInputError, ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN, loaderByKey } from '@lib/federation/loaders';
import type { JobSpec } from '@lib/jobs/job-queue';
import type { OutletService } from '../outlet/outlet.service';
import { type EffectiveAccountRow, type SettlementAccountRow, SettlementAccountRepository } from './settlement-account.repository';

/** The bank's 3-digit code (Bank Indonesia's sandi bank, as transfers use it: 002 BRI, 008 Mandiri, 009 BNI, 014 BCA). */
export const SETTLEMENT_BANK_CODE = /^[0-9]{3}$/;
/** Account numbers: 6 to 20 digits once spaces and hyphens are dropped. */
export const SETTLEMENT_ACCOUNT_NUMBER = /^[0-9]{6,20}$/;
export const HOLDER_NAME_MIN = 2;
export const HOLDER_NAME_MAX = 100;
/** The job that tells the REST caches when a change's cooling-off ends (run by the outlet process). */
export const SETTLEMENT_ACCOUNT_EFFECTIVE_TASK = 'settlement_account.effective';

export interface SettlementAccountInput {
  merchantId: string;
  outletId: string | null;
  bankCode: string;
  accountNumber: string;
  holderName: string;
}

/** An account as the graph answers it: the number opened (full) only for callers who may see it. */
export interface SettlementAccountView {
  id: string;
  merchantId: string;
  outletId: string | null;
  /** `corporate` (pooled) or `outlet` (the outlet's own). */
  source: 'corporate' | 'outlet';
  bankCode: string;
  accountNumber: string;
  accountNumberMasked: string;
  holderName: string;
  effectiveAt: Date;
  requestedAt: Date;
  requestedBy: string;
}

export interface SettlementAccountSettingView {
  merchantId: string;
  outletId: string | null;
  current: SettlementAccountView | null;
  pending: SettlementAccountView | null;
}

/** `******7890`: every digit but the last four hidden. */
export function maskAccountNumber(last4: string, length = 10): string {
  return `${'*'.repeat(Math.max(length - 4, 2))}${last4}`;
}

/** An account as the audit and the notifications name it: bank, masked number, holder. */
function described(row: Pick<SettlementAccountRow, 'bankCode' | 'accountNumberLast4' | 'holderName'>): string {
  return `${row.bankCode} ${maskAccountNumber(row.accountNumberLast4)} ${row.holderName}`;
}

function actorOf(principal: Principal): string {
  switch (principal.kind) {
    case 'user':
      return `user:${principal.userId}`;
    case 'operator':
      return `operator:${principal.operatorId}`;
    case 'internal':
    case 'service':
      return `${principal.kind}:${principal.service}`;
    default:
      throw new ForbiddenError('only the owner or an operator may change settlement accounts');
  }
}

/**
 * Settlement accounts (docs/decisions/0238-settlement-accounts.md): the corporate account of a merchant and each
 * outlet's own, set by the owner or an operator. A first account (nothing paid into yet for the outlet or merchant)
 * is effective at once; any other change is held for the cooling-off (SETTLEMENT_ACCOUNT_COOLING_OFF_HOURS) while
 * the previous account stays effective, and may be cancelled meanwhile. Every request and cancellation is audited
 * (the actor, both accounts masked) and tells the owners on every channel (the `settlement_account.changed` job of
 * the merchant process). The same request again changes nothing.
 */
export class SettlementAccountService {
  private readonly repo: SettlementAccountRepository;
  private readonly effectiveByOutlet;

  constructor(
    em: EntityManager,
    private readonly box: SecretBox,
    private readonly coolingOffMs: number,
    private readonly outlets: OutletService,
  ) {
    this.repo = new SettlementAccountRepository(em);
    this.effectiveByOutlet = loaderByKey<string, EffectiveAccountRow>(
      (ids) => this.repo.effectiveOf(ids),
      (row) => row.forOutletId,
    );
  }

  /** The scope's own account now and its pending change (the corporate account when `outletId` is null). */
  async setting(merchantId: string, outletId: string | null, full: boolean): Promise<SettlementAccountSettingView> {
    const [current, pending] = await Promise.all([this.repo.currentOf(merchantId, outletId), this.repo.pendingOf(merchantId, outletId)]);
    return { merchantId, outletId, current: current && this.view(current, full), pending: pending && this.view(pending, full) };
  }

  /** The outlet's account in effect: its own, else the corporate account; null when neither is set. */
  async effective(outletId: string, full: boolean): Promise<SettlementAccountView | null> {
    const row = UUID_PATTERN.test(outletId) ? await this.effectiveByOutlet.load(outletId.toLowerCase()) : null;
    return row && this.view(row, full);
  }

  /** Seeds what the bank view read ahead, so the field resolver sends nothing (docs/decisions/0211-bank-view-read-model.md). */
  rememberEffective(rows: EffectiveAccountRow[], outletIds: readonly string[]): void {
    const found = new Map(rows.map((r) => [r.forOutletId, r]));
    for (const id of outletIds) this.effectiveByOutlet.prime(id, found.get(id) ?? null);
  }

  async auditOf(merchantId: string, limit: number) {
    return this.repo.auditOf(merchantId, Math.min(Math.max(limit, 1), 200));
  }

  /** Sets the scope's account: effective at once when nothing is paid into yet, else pending for the cooling-off. */
  async set(principal: Principal, input: SettlementAccountInput): Promise<SettlementAccountSettingView> {
    const valid = checked(input);
    const outletName = await this.outletNameOf(valid.merchantId, valid.outletId);
    const actor = actorOf(principal);
    await this.repo.sqlTransaction(async (tx) => {
      await tx.lockScope(valid.merchantId, valid.outletId);
      const own = await tx.currentOf(valid.merchantId, valid.outletId);
      // What the scope is paid into now: its own account, or (an outlet) the corporate one it falls back to.
      const paid = own ?? (valid.outletId ? await tx.currentOf(valid.merchantId, null) : null);
      const pending = await tx.pendingOf(valid.merchantId, valid.outletId);
      if (pending && this.sameAs(pending, valid)) return; // a replay of the pending request
      if (!pending && own && this.sameAs(own, valid)) return; // already the account in effect
      if (pending) {
        await tx.end(pending.id, own && this.sameAs(own, valid) ? 'cancelled' : 'superseded', actor);
        const withdrawn = own && this.sameAs(own, valid);
        await tx.audit({
          id: uuidv7(),
          merchantId: valid.merchantId,
          outletId: valid.outletId,
          accountId: pending.id,
          action: withdrawn ? 'cancelled' : 'superseded',
          actor,
          oldAccount: paid && described(paid),
          newAccount: described(pending),
          effectiveAt: pending.effectiveAt,
        });
        if (withdrawn) {
          // Asking for the account in effect withdraws the pending change: a cancellation.
          await tx.enqueue([this.changedJob(pending, 'cancelled', outletName, paid, actor)]);
          return;
        }
      }
      const now = await tx.now();
      const row: SettlementAccountRow = {
        id: uuidv7(),
        merchantId: valid.merchantId,
        outletId: valid.outletId,
        bankCode: valid.bankCode,
        accountNumberSealed: this.box.seal(valid.accountNumber),
        accountNumberLast4: valid.accountNumber.slice(-4),
        holderName: valid.holderName,
        status: 'scheduled',
        effectiveAt: paid ? new Date(now.getTime() + this.coolingOffMs) : now,
        requestedAt: now,
        requestedBy: actor,
      };
      await tx.insert(row);
      await tx.audit({
        id: uuidv7(),
        merchantId: row.merchantId,
        outletId: row.outletId,
        accountId: row.id,
        action: 'requested',
        actor,
        oldAccount: paid && described(paid),
        newAccount: described(row),
        effectiveAt: row.effectiveAt,
      });
      const jobs: JobSpec[] = [this.changedJob(row, 'requested', outletName, paid, actor)];
      if (paid)
        jobs.push({
          task: SETTLEMENT_ACCOUNT_EFFECTIVE_TASK,
          payload: { account_id: row.id },
          runAt: row.effectiveAt,
          jobKey: `settlement_account.effective:${row.id}`,
        });
      await tx.enqueue(jobs);
    });
    return this.setting(valid.merchantId, valid.outletId, true);
  }

  /** Cancels the scope's pending change (the previous account stays effective); nothing pending: nothing changes. */
  async cancel(principal: Principal, target: { merchantId: string; outletId: string | null }): Promise<SettlementAccountSettingView> {
    const merchantId = checkedId(target.merchantId, 'merchantId');
    const outletId = target.outletId == null ? null : checkedId(target.outletId, 'outletId');
    const outletName = await this.outletNameOf(merchantId, outletId);
    const actor = actorOf(principal);
    await this.repo.sqlTransaction(async (tx) => {
      await tx.lockScope(merchantId, outletId);
      const pending = await tx.pendingOf(merchantId, outletId);
      if (!pending || !(await tx.end(pending.id, 'cancelled', actor))) return;
      const paid = (await tx.currentOf(merchantId, outletId)) ?? (outletId ? await tx.currentOf(merchantId, null) : null);
      await tx.audit({
        id: uuidv7(),
        merchantId,
        outletId,
        accountId: pending.id,
        action: 'cancelled',
        actor,
        oldAccount: paid && described(paid),
        newAccount: described(pending),
        effectiveAt: pending.effectiveAt,
      });
      await tx.enqueue([this.changedJob(pending, 'cancelled', outletName, paid, actor)]);
    });
    return this.setting(merchantId, outletId, true);
  }

  /** The cooling-off of a change ended: bank lookups cached with the previous account are dropped. */
  async becameEffective(accountId: string): Promise<void> {
    const row = UUID_PATTERN.test(accountId) ? await this.repo.scheduled(accountId) : null;
    if (row) await this.repo.notifyChanged(row.merchantId);
  }

  private changedJob(
    row: SettlementAccountRow,
    action: 'requested' | 'cancelled',
    outletName: string | null,
    paid: SettlementAccountRow | null,
    actor: string,
  ) {
    const payload: SettlementAccountChangedPayload = {
      account_id: row.id,
      merchant_id: row.merchantId,
      outlet_id: row.outletId,
      outlet_name: outletName,
      action,
      bank_code: row.bankCode,
      account_number_masked: maskAccountNumber(row.accountNumberLast4),
      holder_name: row.holderName,
      previous_account_masked: paid && described(paid),
      effective_at: row.effectiveAt.toISOString(),
      actor,
    };
    return { task: SETTLEMENT_ACCOUNT_CHANGED_TASK, payload, jobKey: `settlement_account.changed:${row.id}:${action}` };
  }

  private async outletNameOf(merchantId: string, outletId: string | null): Promise<string | null> {
    if (outletId === null) return null;
    const outlet = await this.outlets.findById(outletId);
    if (!outlet || outlet.merchant.id.toLowerCase() !== merchantId) throw new NotFoundError('outlet');
    return outlet.name;
  }

  private sameAs(row: SettlementAccountRow, input: SettlementAccountInput): boolean {
    return (
      row.bankCode === input.bankCode &&
      row.holderName === input.holderName &&
      row.accountNumberLast4 === input.accountNumber.slice(-4) &&
      this.box.open(row.accountNumberSealed) === input.accountNumber
    );
  }

  private view(row: SettlementAccountRow, full: boolean): SettlementAccountView {
    const masked = maskAccountNumber(row.accountNumberLast4);
    return {
      id: row.id,
      merchantId: row.merchantId,
      outletId: row.outletId,
      source: row.outletId === null ? 'corporate' : 'outlet',
      bankCode: row.bankCode,
      accountNumber: full ? this.box.open(row.accountNumberSealed) : masked,
      accountNumberMasked: masked,
      holderName: row.holderName,
      effectiveAt: row.effectiveAt,
      requestedAt: row.requestedAt,
      requestedBy: row.requestedBy,
    };
  }
}

function checkedId(value: string, name: string): string {
  if (!UUID_PATTERN.test(value)) throw new BadInputError(`${name} must be a UUID`);
  return value.toLowerCase();
}

/** The input normalised (number without spaces or hyphens, name trimmed with single spaces), or BAD_USER_INPUT. */
function checked(input: SettlementAccountInput): SettlementAccountInput {
  const merchantId = checkedId(input.merchantId, 'merchantId');
  const outletId = input.outletId == null ? null : checkedId(input.outletId, 'outletId');
  const bankCode = input.bankCode.trim();
  if (!SETTLEMENT_BANK_CODE.test(bankCode)) throw new BadInputError("bankCode must be the bank's 3-digit code (e.g. 014)");
  const accountNumber = input.accountNumber.replace(/[\s-]/g, '');
  if (!SETTLEMENT_ACCOUNT_NUMBER.test(accountNumber)) throw new BadInputError('accountNumber must be 6 to 20 digits');
  const holderName = input.holderName.trim().replace(/\s+/g, ' ');
  if (holderName.length < HOLDER_NAME_MIN || holderName.length > HOLDER_NAME_MAX || /\p{C}/u.test(holderName))
    throw new BadInputError(`holderName must be ${HOLDER_NAME_MIN} to ${HOLDER_NAME_MAX} printable characters`);
  return { merchantId, outletId, bankCode, accountNumber, holderName };
}
