import { Repository } from '@lib/db/repository';

/** The audit of external phone verifications (`merchant.external_verifications`), written in the login's transaction. */
export class AuthRepository extends Repository {
  async insertExternalVerification(row: Record<string, unknown>): Promise<void> {
    await this.db('merchant.external_verifications').insert(row);
  }
}
