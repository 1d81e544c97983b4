import type { CatalogContext } from '@subgraphs/catalog/src/context';
import type { CategoryType } from './category.type';

export const categoryReference = {
  Category: {
    __resolveReference(ref: { id: string }, ctx: CatalogContext): Promise<CategoryType | null> {
      return ctx.services.category.findById(ref.id);
    },
  },
};
