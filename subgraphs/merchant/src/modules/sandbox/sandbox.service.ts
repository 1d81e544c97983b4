import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { assertClockStep, liveBankError, sandboxBankOf } from '@lib/domain/sandbox/sandbox-bank';
import { SandboxRepository } from './sandbox.repository';
import type { SandboxClockType, SandboxMerchantResetType } from './sandbox.type';

/**
 * A sandbox bank's own sandbox, merchant side (docs/decisions/0015-demo-data-and-sandbox.md): its clock and its reset.
 * Only a bank principal marked sandbox whose bank row is a sandbox bank gets here (FORBIDDEN `live_bank` otherwise),
 * and everything it changes hangs off that bank's id.
 */
export class SandboxService {
  private readonly repo: SandboxRepository;

  constructor(em: EntityManager) {
    this.repo = new SandboxRepository(em);
  }

  async clock(principal: Principal): Promise<SandboxClockType> {
    const bankId = await this.sandboxBank(principal);
    return clockOf(await this.repo.offsetSecs(bankId), 0);
  }

  /** Advances the clock by `seconds` (1 to 30 days) and moves the bank's pending webhook retries that much closer, in one transaction. */
  async advance(principal: Principal, seconds: number): Promise<SandboxClockType> {
    const bankId = await this.sandboxBank(principal);
    assertClockStep(seconds);
    const { offset, moved } = await this.repo.sqlTransaction(async (tx) => ({
      offset: await tx.advance(bankId, seconds),
      moved: await tx.moveWebhookAttempts(bankId, seconds),
    }));
    return clockOf(offset, moved);
  }

  /** Deletes the bank's webhook deliveries and clock and restores its sandbox merchants, in one transaction; idempotent. */
  async reset(principal: Principal): Promise<SandboxMerchantResetType> {
    const bankId = await this.sandboxBank(principal);
    return this.repo.sqlTransaction((tx) => tx.reset(bankId));
  }

  private async sandboxBank(principal: Principal): Promise<string> {
    const bank = sandboxBankOf(principal);
    if (!(await this.repo.isSandboxBank(bank.bankId))) throw liveBankError();
    return bank.bankId;
  }
}

function clockOf(offsetSecs: number, webhookDeliveriesMoved: number): SandboxClockType {
  return { now: new Date(Date.now() + offsetSecs * 1000), offsetSecs, webhookDeliveriesMoved };
}
