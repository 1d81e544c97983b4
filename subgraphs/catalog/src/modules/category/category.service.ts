import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import { Category } from './category.entity';
import type { CategoryType } from './category.type';

export class CategoryService {
  private readonly byId;
  private readonly byMerchantId;

  constructor(private readonly em: EntityManager) {
    this.byId = loaderByKey(
      (ids: string[]) => this.em.find(Category, { id: { $in: ids }, deletedAt: null }),
      (row) => row.id,
    );
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) =>
        this.em.find(Category, { merchantId: { $in: merchantIds }, deletedAt: null }, { orderBy: { sortOrder: 'asc', name: 'asc' } }),
      (row) => row.merchantId,
    );
  }

  async findById(id: string): Promise<CategoryType | null> {
    const row = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return row && toCategoryType(row);
  }

  async ofMerchant(merchantId: string): Promise<CategoryType[]> {
    return (await this.byMerchantId.load(merchantId)).map(toCategoryType);
  }
}

function toCategoryType(row: Category): CategoryType {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parentId ?? null,
    sortOrder: row.sortOrder,
    iconName: row.iconName ?? null,
    isActive: row.isActive,
    merchant: { id: row.merchantId },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
