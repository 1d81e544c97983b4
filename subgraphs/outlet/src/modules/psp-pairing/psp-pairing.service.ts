import type { EntityManager } from '@mikro-orm/postgresql';
import { loaderGroupedByKey } from '@lib/federation/loaders';
import { PspPairingRepository } from './psp-pairing.repository';
import type { PspPairingType } from './psp-pairing.type';

export class PspPairingService {
  private readonly byMerchantId;

  constructor(em: EntityManager) {
    const repo = new PspPairingRepository(em);
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => repo.liveOfMerchants(merchantIds),
      (row) => row.merchantId,
    );
  }

  /** The merchant's pairings that are not deleted, oldest first. */
  async ofMerchant(merchantId: string): Promise<PspPairingType[]> {
    return (await this.byMerchantId.load(merchantId)).map((p) => ({
      id: p.id,
      pspCode: p.pspCode,
      pspName: p.pspName,
      kodeKartu: p.kodeKartu ?? null,
      namaKartu: p.namaKartu ?? null,
      pspMid: p.pspMid ?? null,
      pspTid: p.pspTid ?? null,
      pairingStatus: p.pairingStatus,
    }));
  }
}
