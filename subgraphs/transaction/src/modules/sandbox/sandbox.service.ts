import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { BadInputError } from '@lib/errors/app-error';
import { assertClockStep, sandboxBankOf } from '@lib/domain/sandbox/sandbox-bank';
import { isSandboxNmid } from '@lib/domain/sandbox/sandbox-nmid';
import { SandboxRepository } from './sandbox.repository';
import type { SandboxSettlementDayType, SandboxTransactionResetType } from './sandbox.type';

/**
 * A sandbox bank's own sandbox, transaction side (docs/decisions/0015-demo-data-and-sandbox.md): its dynamic QRIS
 * expiries follow its clock, the day a simulated settlement settles, and its reset. Only a bank principal marked
 * sandbox gets here (FORBIDDEN `live_bank` otherwise); every statement names that bank.
 */
export class SandboxService {
  private readonly repo: SandboxRepository;

  constructor(em: EntityManager) {
    this.repo = new SandboxRepository(em);
  }

  async advance(principal: Principal, seconds: number): Promise<number> {
    const bank = sandboxBankOf(principal);
    assertClockStep(seconds);
    return this.repo.moveQrisExpiries(bank.bankId, seconds);
  }

  async settlementDay(principal: Principal, nmid: string, date: string): Promise<SandboxSettlementDayType> {
    const bank = sandboxBankOf(principal);
    if (!isSandboxNmid(nmid)) throw new BadInputError('nmid must be a sandbox NMID (ID99 followed by 13 digits)');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
      throw new BadInputError('settlementDate must be a date (YYYY-MM-DD)');
    const day = await this.repo.unsettledDay(bank.bankCode, nmid, date);
    return { count: day.count, grossAmount: Number(day.gross_amount), mdrTotal: Number(day.mdr_total) };
  }

  /** Deletes the bank's sandbox rows of this subgraph in one transaction; idempotent. */
  async reset(principal: Principal): Promise<SandboxTransactionResetType> {
    const bank = sandboxBankOf(principal);
    return this.repo.sqlTransaction((tx) => tx.reset(bank.bankId, bank.bankCode));
  }
}
