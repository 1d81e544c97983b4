import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { Bank, BankCredential } from './bank.entity';

/** Banks and their credentials (`merchant.banks`, `merchant.bank_credentials`). */
export class BankRepository extends Repository {
  /** A new bank, written by the next flush. */
  create(data: RequiredEntityData<Bank>): Bank {
    return this.em.create(Bank, data);
  }

  /** A new credential, written by the next flush. */
  createCredential(data: RequiredEntityData<BankCredential>): BankCredential {
    return this.em.create(BankCredential, data);
  }

  /** The credential with this key id, its bank loaded. */
  credential(keyId: string): Promise<BankCredential | null> {
    return this.em.findOne(BankCredential, { keyId }, { populate: ['bank'] });
  }

  /** The live banks, or the sandbox ones, by code. */
  all(sandbox: boolean): Promise<Bank[]> {
    return this.em.find(Bank, { sandbox }, { orderBy: { code: 'asc' } });
  }

  byCode(code: string): Promise<Bank | null> {
    return this.em.findOne(Bank, { code });
  }

  byCodes(codes: string[]): Promise<Bank[]> {
    return this.em.find(Bank, { code: { $in: codes } });
  }
}
