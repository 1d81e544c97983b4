import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { MemberScope } from '@lib/auth/user-scope';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { TRANSACTION_COLUMNS } from './transaction.entity';
import { fromRow } from './transaction.service';
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

/** Which rows of a merchant the caller may see: all (null), or an app member's outlets and device. */
type Visibility = Pick<MemberScope, 'outletIds' | 'terminalId'> | null;

/**
 * The app's and dashboards' transaction reads: a Relay connection and a period summary per merchant. Both are
 * batched over merchants (one statement per distinct set of arguments), so a list of merchants each with its
 * transactions costs one query, not one per merchant.
 */
export class TransactionFeedService {
  private readonly pages = new Map<string, DataLoader<string, TransactionConnectionType>>();
  private readonly summaries = new Map<string, DataLoader<string, TransactionSummaryType>>();

  constructor(private readonly em: EntityManager) {}

  connection(merchantId: string, filter: FeedFilter, visibility: Visibility): Promise<TransactionConnectionType> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_CONNECTION_PAGE) {
      throw new BadInputError(`first must be between 1 and ${MAX_CONNECTION_PAGE}`);
    }
    if (filter.status != null && !STATUSES.includes(filter.status)) throw new BadInputError(`status must be one of ${STATUSES.join(', ')}`);
    if (filter.outletId != null && !UUID_PATTERN.test(filter.outletId)) throw new BadInputError('outletId must be a UUID');
    const after = filter.after ? decodeCursor(filter.after) : null;
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
        const knex = this.em.getKnex();
        const inner = knex('transaction.transactions as t')
          .select('t.*', knex.raw('row_number() over (partition by t.merchant_id order by t.transaction_at desc, t.id desc) as rank'))
          .whereIn('t.merchant_id', merchantIds as string[]);
        applyVisibility(inner, visibility, filter.outletId ?? null);
        if (filter.status) inner.where('t.status', filter.status);
        if (filter.from) inner.where('t.transaction_at', '>=', filter.from);
        if (filter.to) inner.where('t.transaction_at', '<=', filter.to);
        if (after) inner.whereRaw('(t.transaction_at, t.id) < (?::timestamptz, ?::uuid)', [after.at, after.id]);
        const rows = await knex
          .select(knex.raw(TRANSACTION_COLUMNS))
          .from(inner.as('ranked'))
          .where('rank', '<=', filter.first + 1)
          .orderBy([{ column: 'merchant_id' }, { column: 'rank' }]);
        const byMerchant = new Map<string, Record<string, any>[]>();
        for (const row of rows as Record<string, any>[]) {
          const list = byMerchant.get(row.merchant_id) ?? [];
          list.push(row);
          byMerchant.set(row.merchant_id, list);
        }
        return merchantIds.map((id) => {
          const list = byMerchant.get(id) ?? [];
          const page = list.slice(0, filter.first);
          const edges = page.map((row) => ({ cursor: encodeCursor(String(row.transaction_at), row.id), node: fromRow(row) }));
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
        const knex = this.em.getKnex();
        const query = knex('transaction.transactions as t')
          .whereIn('t.merchant_id', merchantIds as string[])
          .where('t.status', 'success')
          .where('t.transaction_at', '>=', period.from)
          .where('t.transaction_at', '<', period.before)
          .groupBy('t.merchant_id', 't.outlet_id')
          .select<{ merchant_id: string; outlet_id: string | null; gross: string; count: string }[]>(
            't.merchant_id',
            't.outlet_id',
            knex.raw('sum(t.gross_amount)::text as gross'),
            knex.raw('count(*)::text as count'),
          );
        applyVisibility(query, visibility, period.outletId ?? null);
        const rows = await query;
        return merchantIds.map((id) => {
          const outletBreakdown = rows
            .filter((r) => r.merchant_id === id)
            .map((r) => ({ outlet: r.outlet_id ? { id: r.outlet_id } : null, grossAmount: Number(r.gross), count: Number(r.count) }))
            .sort((a, b) => b.grossAmount - a.grossAmount || (a.outlet?.id ?? '').localeCompare(b.outlet?.id ?? ''));
          return {
            grossAmount: outletBreakdown.reduce((sum, o) => sum + o.grossAmount, 0),
            count: outletBreakdown.reduce((sum, o) => sum + o.count, 0),
            outletBreakdown,
          };
        });
      });
      this.summaries.set(key, loader);
    }
    return loader.load(merchantId);
  }
}

function applyVisibility(query: any, visibility: Visibility, outletId: string | null): void {
  if (outletId) query.where('t.outlet_id', outletId);
  if (visibility?.outletIds) query.whereIn('t.outlet_id', visibility.outletIds);
  if (visibility?.terminalId) query.where('t.terminal_id', visibility.terminalId);
}

/** The row's position: its transaction time as PostgreSQL printed it (microseconds kept, which a Date would lose) and id. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify({ v: 1, at, id })).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: number; at?: string; id?: string };
    if (
      value.v === 1 &&
      typeof value.id === 'string' &&
      UUID_PATTERN.test(value.id) &&
      typeof value.at === 'string' &&
      TIMESTAMP.test(value.at)
    ) {
      return { at: value.at, id: value.id };
    }
  } catch {
    // fall through
  }
  throw new BadInputError('invalid cursor');
}
