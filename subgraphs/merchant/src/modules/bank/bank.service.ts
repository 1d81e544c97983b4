import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { type SecretBox, newKeyId, newSecret } from '@lib/crypto/secret-box';
import { BadInputError } from '@lib/errors/app-error';
import { loaderByKey } from '@lib/federation/loaders';
import type { Bank, BankTier, CredentialPurpose } from './bank.entity';
import { BankCodeTakenError } from './bank.errors';
import { BankRepository } from './bank.repository';
import type { BankCredentialType, BankType } from './bank.type';

export interface IssuedBank {
  bank_id: string;
  bank_code: string;
  tier: BankTier;
  sandbox: boolean;
  lookup_key_id: string;
  lookup_secret: string;
  event_key_id: string;
  event_secret: string;
}

export const TIER_NUMBER: Record<BankTier, number> = { tier1: 1, external: 2 };

export class BankService {
  private readonly repo: BankRepository;
  /** Banks by code, batched over a request (Merchant.bank). */
  private readonly byCode;

  constructor(
    em: EntityManager,
    private readonly box: SecretBox,
  ) {
    this.repo = new BankRepository(em);
    this.byCode = loaderByKey(
      (codes: string[]) => this.repo.byCodes(codes),
      (bank) => bank.code,
    );
  }

  /**
   * Onboards a bank with one lookup key and one event key. The secrets are returned once, here, and
   * stored only sealed. A sandbox bank (docs/decisions/0015-demo-data-and-sandbox.md) is external: the tier-1 PSP assigns NMIDs
   * of its own choosing, and sandbox NMIDs are issued by the platform from a reserved range.
   */
  async create(input: { code: string; name: string; tier: BankTier; sandbox?: boolean }): Promise<IssuedBank> {
    if (!/^[A-Z0-9]{2,12}$/.test(input.code)) throw new BadInputError('bank code must be 2–12 uppercase letters or digits');
    if (!input.name.trim()) throw new BadInputError('bank name is required');
    const sandbox = input.sandbox ?? false;
    if (sandbox && input.tier !== 'external') throw new BadInputError('a sandbox bank is external (tier1 is the platform’s own PSP)');
    const bank = this.repo.create({ code: input.code, name: input.name.trim(), tier: input.tier, sandbox });
    const issue = (purpose: CredentialPurpose) => {
      const secret = newSecret();
      const credential = this.repo.createCredential({
        bank,
        purpose,
        keyId: newKeyId(purpose === 'lookup' ? 'lk' : 'ek'),
        secretSealed: this.box.seal(secret),
      });
      return { keyId: credential.keyId, secret };
    };
    const lookup = issue('lookup');
    const event = issue('event');
    try {
      await this.repo.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new BankCodeTakenError(input.code);
      throw error;
    }
    return {
      bank_id: bank.id,
      bank_code: bank.code,
      tier: bank.tier,
      sandbox: bank.sandbox,
      lookup_key_id: lookup.keyId,
      lookup_secret: lookup.secret,
      event_key_id: event.keyId,
      event_secret: event.secret,
    };
  }

  /** A credential with its secret opened, for signature verification by the REST adapters. */
  async credential(keyId: string): Promise<BankCredentialType | null> {
    const credential = await this.repo.credential(keyId);
    if (!credential) return null;
    return {
      keyId: credential.keyId,
      purpose: credential.purpose,
      secret: this.box.open(credential.secretSealed),
      status: credential.status,
      bank: toBankType(credential.bank),
    };
  }

  /** Live banks, or sandbox ones only (docs/decisions/0015-demo-data-and-sandbox.md), by code. */
  async list(sandbox = false): Promise<Bank[]> {
    return this.repo.all(sandbox);
  }

  async findByCode(code: string): Promise<Bank | null> {
    return this.repo.byCode(code);
  }

  /** The bank with this code (batched), as the graph shows it. */
  async typeByCode(code: string): Promise<BankType | null> {
    const bank = await this.byCode.load(code);
    return bank ? toBankType(bank) : null;
  }
}

export function toBankType(bank: Bank): BankType {
  return { id: bank.id, code: bank.code, name: bank.name, tier: TIER_NUMBER[bank.tier], sandbox: bank.sandbox };
}
