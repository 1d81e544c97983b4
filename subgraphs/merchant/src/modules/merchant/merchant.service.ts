import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey } from '../../../../../lib/federation/loaders';
import { Merchant } from './merchant.entity';

export class MerchantService {
  /** Batches every merchant lookup of a request (root fields and `_entities`) into one query. */
  private readonly byId;

  constructor(private readonly em: EntityManager) {
    this.byId = loaderByKey(
      (ids: string[]) => this.em.find(Merchant, { id: { $in: ids } }),
      (row) => row.id,
    );
  }

  async findById(id: string): Promise<Merchant | null> {
    return UUID_PATTERN.test(id) ? this.byId.load(id) : null;
  }
}
