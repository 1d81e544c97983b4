import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '@lib/db/sync-pull';
import { v7 as uuidv7 } from 'uuid';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { PosInputError, PosNotFoundError, optionalText, requireInt, requireText } from '../pos/pos.errors';
import { DEFAULT_CATEGORIES, defaultCategoriesOf } from './category-defaults.data';
import { type CategoryRow, CategoryRepository } from './category.repository';
import type {
  CategoryType,
  CreatePosCategoryInput,
  PosDefaultCategorySetType,
  ProvisionCategoryInput,
  UpdatePosCategoryInput,
} from './category.type';

const MAX_NAME = 100;
const MAX_ICON = 64;
const MAX_SORT = 1_000_000;
const MAX_PROVISION = 100;

/** Categories of one merchant for the point of sale; every statement is scoped by the merchant. */
export class PosCategoryService {
  private readonly repo: CategoryRepository;

  constructor(em: EntityManager) {
    this.repo = new CategoryRepository(em);
  }

  async list(merchantId: string): Promise<CategoryType[]> {
    const rows = await this.repo.liveRowsOf(merchantId);
    return rows.map(toCategory);
  }

  async get(merchantId: string, id: string): Promise<CategoryType> {
    const row = UUID_PATTERN.test(id) ? await this.repo.liveRowById(merchantId, id) : undefined;
    if (!row) throw new PosNotFoundError('category');
    return toCategory(row);
  }

  async create(merchantId: string, input: CreatePosCategoryInput): Promise<CategoryType> {
    const name = requireText('name', input.name, MAX_NAME);
    const parentId = input.parentId ?? null;
    if (parentId !== null) await requireParent(this.repo, merchantId, parentId);
    const now = new Date();
    const row = await this.repo.insert({
      id: uuidv7(),
      merchant_id: merchantId,
      parent_id: parentId,
      name,
      sort_order: input.sortOrder == null ? 0 : requireInt('sort_order', input.sortOrder, 0, MAX_SORT),
      icon_name: optionalText('icon_name', input.iconName, MAX_ICON),
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    return toCategory(row);
  }

  async update(merchantId: string, id: string, input: UpdatePosCategoryInput): Promise<CategoryType> {
    const changes: Record<string, unknown> = {};
    if (input.name != null) changes.name = requireText('name', input.name, MAX_NAME);
    if (input.sortOrder != null) changes.sort_order = requireInt('sort_order', input.sortOrder, 0, MAX_SORT);
    if (input.iconName != null) changes.icon_name = optionalText('icon_name', input.iconName, MAX_ICON);
    if (input.isActive != null) changes.is_active = input.isActive;
    if (!UUID_PATTERN.test(id)) throw new PosNotFoundError('category');
    return this.repo.sqlTransaction(async (tx) => {
      const current = await tx.lockLiveRowById(merchantId, id);
      if (!current) throw new PosNotFoundError('category');
      if (input.parentId != null) {
        if (input.parentId === '') changes.parent_id = null;
        else {
          await requireParent(tx, merchantId, input.parentId);
          // The new parent must not be the category itself or one of its descendants.
          if (await tx.isSelfOrAncestor(id, input.parentId)) throw new PosInputError('parent_id would make the category its own ancestor');
          changes.parent_id = input.parentId;
        }
      }
      return toCategory(await tx.update(id, { ...changes, updated_at: new Date() }));
    });
  }

  async remove(merchantId: string, id: string): Promise<boolean> {
    const count = UUID_PATTERN.test(id) ? await this.repo.softDelete(merchantId, id) : 0;
    if (!count) throw new PosNotFoundError('category');
    return true;
  }

  defaultSets(): PosDefaultCategorySetType[] {
    return Object.keys(DEFAULT_CATEGORIES).map((categoryCode) => ({ categoryCode, categories: defaultCategoriesOf(categoryCode) }));
  }

  /**
   * First-run categories: `selected` then `custom`, in that order (same names once, case-insensitive). When the
   * merchant already has live categories they are returned and nothing is inserted. A transaction-scoped
   * advisory lock per merchant serialises concurrent provisions, so the check and the insert cannot interleave.
   */
  async provision(merchantId: string, selected: ProvisionCategoryInput[], custom: ProvisionCategoryInput[]): Promise<CategoryType[]> {
    const wanted = [...selected, ...custom];
    if (wanted.length > MAX_PROVISION) throw new PosInputError(`at most ${MAX_PROVISION} categories can be provisioned`);
    const seen = new Set<string>();
    const rows = wanted
      .map((c) => ({ name: requireText('name', c.name, MAX_NAME), iconName: optionalText('icon_name', c.iconName, MAX_ICON) }))
      .filter((c) => !seen.has(c.name.toLowerCase()) && seen.add(c.name.toLowerCase()));
    await this.repo.sqlTransaction(async (tx) => {
      await tx.lockProvisioning(merchantId);
      if (await tx.hasAnyLive(merchantId)) return;
      if (rows.length === 0) return;
      const now = new Date();
      await tx.insertMany(
        rows.map((c, i) => ({
          id: uuidv7(),
          merchant_id: merchantId,
          name: c.name,
          icon_name: c.iconName,
          sort_order: i + 1,
          is_active: true,
          created_at: now,
          updated_at: now,
        })),
      );
    });
    return this.list(merchantId);
  }
}

async function requireParent(repo: CategoryRepository, merchantId: string, parentId: string): Promise<void> {
  const parent = UUID_PATTERN.test(parentId) && (await repo.hasLive(merchantId, parentId));
  if (!parent) throw new PosInputError('parent_id is not a category of the merchant');
}

function toCategory(row: CategoryRow): CategoryType {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    sortOrder: row.sort_order,
    iconName: row.icon_name,
    isActive: row.is_active,
    merchant: { id: row.merchant_id },
    createdAt: pgTime(row.created_at),
    updatedAt: pgTime(row.updated_at),
  };
}
