import { Repository } from '@lib/db/repository';
import { PspPairing } from './psp-pairing.entity';

/** PSP pairings (`outlet.psp_pairings`). */
export class PspPairingRepository extends Repository {
  /** The pairings of these merchants that are not deleted, oldest first. */
  liveOfMerchants(merchantIds: string[]): Promise<PspPairing[]> {
    return this.em.find(PspPairing, { merchantId: { $in: merchantIds }, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}
