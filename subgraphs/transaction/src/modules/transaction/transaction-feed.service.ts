import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '@lib/db/keyset';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { Visibility } from '@lib/domain/access/user-scope';
import { TransactionRepository, type TransactionRow } from './transaction.repository';
import { fromRow, totalsPerMerchant } from './transaction.service';
import type { TransactionConnectionType, TransactionSummaryType } from './transaction-feed.type';

/** Largest page of the app's transaction connection. */
export const MAX_CONNECTION_PAGE = 100;
const STATUSES = ['success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed'];

export interface FeedFilter {
  first: number;
  after?: string | null;
  outletId?: string | null;
  status?: string | null;
  /** Inclusive. */
  from?: Date | null;
  /** Inclusive. */
  to?: Date | null;
}

/**
 * The app's and dashboards' transaction reads: a Relay connection and a period summary per merchant. Both are
 * batched over merchants (one statement per distinct set of arguments), so a list of merchants each with its
 * transactions costs one query, not one per merchant.
 */
export class TransactionFeedService {
  private readonly pages = new Map<string, DataLoader<string, TransactionConnectionType>>();
  private readonly summaries = new Map<string, DataLoader<string, TransactionSummaryType>>();

  private readonly repo: TransactionRepository;

  constructor(em: EntityManager) {
    this.repo = new TransactionRepository(em);
  }

  connection(merchantId: string, filter: FeedFilter, visibility: Visibility): Promise<TransactionConnectionType> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_CONNECTION_PAGE) {
      throw new BadInputError(`first must be between 1 and ${MAX_CONNECTION_PAGE}`);
    }
    if (filter.status != null && !STATUSES.includes(filter.status)) throw new BadInputError(`status must be one of ${STATUSES.join(', ')}`);
    if (filter.outletId != null && !UUID_PATTERN.test(filter.outletId)) throw new BadInputError('outletId must be a UUID');
    const after = filter.after ? decodeTimeIdCursor(filter.after) : null;
    if (!UUID_PATTERN.test(merchantId)) return Promise.resolve({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
    const key = JSON.stringify([
      filter.first,
      after,
      filter.outletId ?? null,
      filter.status ?? null,
      filter.from ?? null,
      filter.to ?? null,
      visibility,
    ]);
    let loader = this.pages.get(key);
    if (!loader) {
      loader = new DataLoader(async (merchantIds: readonly string[]) => {
        const rows = await this.repo.feedPages(merchantIds, {
          perMerchant: filter.first + 1,
          after,
          outletId: filter.outletId ?? null,
          status: filter.status ?? null,
          from: filter.from ?? null,
          to: filter.to ?? null,
          visibility,
        });
        const byMerchant = new Map<string, TransactionRow[]>();
        for (const row of rows) {
          const list = byMerchant.get(row.merchant_id) ?? [];
          list.push(row);
          byMerchant.set(row.merchant_id, list);
        }
        return merchantIds.map((id) => {
          const list = byMerchant.get(id) ?? [];
          const page = list.slice(0, filter.first);
          const edges = page.map((row) => ({ cursor: encodeTimeIdCursor(String(row.transaction_at), row.id), node: fromRow(row) }));
          return { edges, pageInfo: { hasNextPage: list.length > filter.first, endCursor: edges.at(-1)?.cursor ?? null } };
        });
      });
      this.pages.set(key, loader);
    }
    return loader.load(merchantId);
  }

  summary(
    merchantId: string,
    period: { from: Date; before: Date; outletId?: string | null },
    visibility: Visibility,
  ): Promise<TransactionSummaryType> {
    if (period.from >= period.before) throw new BadInputError('from must be before `before`');
    if (period.outletId != null && !UUID_PATTERN.test(period.outletId)) throw new BadInputError('outletId must be a UUID');
    const empty = { grossAmount: 0, count: 0, outletBreakdown: [] };
    if (!UUID_PATTERN.test(merchantId)) return Promise.resolve(empty);
    const key = JSON.stringify([period.from, period.before, period.outletId ?? null, visibility]);
    let loader = this.summaries.get(key);
    if (!loader) {
      loader = new DataLoader(async (merchantIds: readonly string[]) => {
        const rows = await this.repo.feedSums(
          merchantIds,
          { from: period.from, before: period.before, outletId: period.outletId ?? null },
          visibility,
        );
        return totalsPerMerchant(merchantIds, rows);
      });
      this.summaries.set(key, loader);
    }
    return loader.load(merchantId);
  }
}
