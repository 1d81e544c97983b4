import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '../../../../../lib/federation/loaders';
import { Outlet } from './outlet.entity';
import type { OutletType } from './outlet.type';

export class OutletService {
  private readonly byId;
  private readonly byMerchantId;

  constructor(private readonly em: EntityManager) {
    this.byId = loaderByKey(
      (ids: string[]) => this.em.find(Outlet, { id: { $in: ids }, deletedAt: null }),
      (row) => row.id,
    );
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) =>
        this.em.find(Outlet, { merchantId: { $in: merchantIds }, deletedAt: null }, { orderBy: { isDefault: 'desc', code: 'asc' } }),
      (row) => row.merchantId,
    );
  }

  async findById(id: string): Promise<OutletType | null> {
    const outlet = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return outlet && toOutletType(outlet);
  }

  /** Live outlets of a merchant, the default first. */
  async ofMerchant(merchantId: string): Promise<OutletType[]> {
    return (await this.byMerchantId.load(merchantId)).map(toOutletType);
  }
}

function toOutletType(outlet: Outlet): OutletType {
  return {
    id: outlet.id,
    code: outlet.code,
    name: outlet.name,
    nmid: outlet.nmid ?? null,
    isDefault: outlet.isDefault,
    merchant: { id: outlet.merchantId },
    createdAt: outlet.createdAt,
    updatedAt: outlet.updatedAt,
  };
}
