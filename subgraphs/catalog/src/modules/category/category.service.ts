import type { EntityManager } from '@mikro-orm/postgresql';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import type { Category } from './category.entity';
import { CategoryRepository } from './category.repository';
import type { CategoryType } from './category.type';

export class CategoryService {
  private readonly byId;
  private readonly byMerchantId;

  constructor(em: EntityManager) {
    const repo = new CategoryRepository(em);
    this.byId = loaderByKey(
      (ids: string[]) => repo.liveByIds(ids),
      (row) => row.id,
    );
    this.byMerchantId = loaderGroupedByKey(
      (merchantIds: string[]) => repo.liveOfMerchants(merchantIds),
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
