import type { FastifyInstance } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import type { BackgroundRuntime } from '@lib/rest/route';
import {
  ClaimSalesOrderSettlementsDocument,
  CompleteSalesOrderSettlementsDocument,
  SettlePosSalesOrdersByQrisDocument,
} from '@rest-adapters/generated/operations';

const SETTLER: Principal = { kind: 'internal', service: 'order-settlement' };
const BATCH = 100;

/**
 * Sales orders paid by dynamic QRIS (docs/decisions/0201-qris-payloads.md "Sales orders"): claims the transaction
 * subgraph's settlement outbox (rows written with the match, in the bank event's transaction), has the catalog apply
 * them (idempotent per payment, each outcome recorded there) and writes the outcomes back. A claim is a lease: a row
 * whose round failed (a subgraph down) or whose claimer died is claimed again when it lapses, never given up; copies
 * never share a row. Woken by the feed signal (a paid payment always appends a feed row) and a periodic tick; one
 * round at a time per process, and a wake-up during a round runs another after it.
 */
export class OrderSettlementDispatcher {
  private round?: Promise<void>;
  private pending = false;
  private tick?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly runtime: BackgroundRuntime,
    private readonly log: FastifyInstance['log'],
  ) {}

  start(intervalMs: number): void {
    this.tick = setInterval(() => this.wake(), intervalMs).unref();
    this.wake();
  }

  wake(): void {
    this.pending = true;
    if (!this.round && !this.closed) this.round = this.rounds().finally(() => (this.round = undefined));
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.tick);
    await this.round;
  }

  private async rounds(): Promise<void> {
    while (this.pending && !this.closed) {
      this.pending = false;
      try {
        if ((await this.settleBatch()) === BATCH) this.pending = true;
      } catch (error) {
        // Left claimed: claimed again when the lease lapses.
        this.log.warn({ err: error }, 'order settlement: round failed');
      }
    }
  }

  /** One claimed batch applied and completed; its size. */
  private async settleBatch(): Promise<number> {
    const { claimSalesOrderSettlements: claimed } = await this.runtime.execute(
      ClaimSalesOrderSettlementsDocument,
      { limit: BATCH },
      SETTLER,
    );
    if (claimed.length === 0) return 0;
    const { settlePosSalesOrdersByQris: outcomes } = await this.runtime.execute(
      SettlePosSalesOrdersByQrisDocument,
      {
        items: claimed.map(({ id: _id, attempts: _attempts, ...item }) => item),
      },
      SETTLER,
    );
    const outcomeOf = new Map(outcomes.map((o) => [o.qrisPaymentId, o.outcome]));
    const results = claimed.map((c) => ({ id: c.id, outcome: outcomeOf.get(c.qrisPaymentId)! }));
    for (const r of results)
      if (r.outcome !== 'applied') this.log.warn({ settlement_id: r.id, outcome: r.outcome }, 'order settlement: order not marked paid');
    await this.runtime.execute(CompleteSalesOrderSettlementsDocument, { results }, SETTLER);
    return claimed.length;
  }
}
