import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { BadInputError, isConnectionFailure, isRefusedValue } from '@lib/errors/app-error';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { type MerchantMdr, mdrFeeOf, mdrRateAt } from '../mdr/mdr';
import { MdrRepository } from '../mdr/mdr.repository';
import { type NewPaymentFeedRow, PaymentFeedRepository } from '../payment-feed/payment-feed.repository';
import { feedRowOf } from '../payment-feed/payment-feed.service';
import { PaymentTargetService } from '../payment-target/payment-target.service';
import { QrisPaymentRepository } from '../qris-payment/qris-payment.repository';
import { NO_BILL, type RecordedSuccess, billNumberOf, matchQrisPayment } from '../qris-payment/qris-payment.service';
import type { Transaction, TransactionStatus } from '../transaction/transaction.entity';
import type { PaymentEvent } from './payment-event.entity';
import { type EventErrorCode, PaymentEventNotFoundError } from './payment-event.errors';
import { type NewTransactionRow, PaymentEventRepository } from './payment-event.repository';
import type {
  BankPaymentEventToResolveInput,
  PaymentEventInput,
  PaymentEventOutcome,
  PaymentEventResult,
  PaymentTargetInput,
} from './payment-event.type';

/** What an event type does; the nine types of psp-api.md §6. */
type EventKind = 'success' | 'failed' | 'cancelled' | 'refund' | 'reversal' | 'nmid_status';

const KIND_OF_TYPE: Record<string, EventKind> = {
  'transaction.success': 'success',
  'qris.payment.success': 'success',
  'transaction.failed': 'failed',
  'qris.payment.failed': 'failed',
  'transaction.cancelled': 'cancelled',
  'transaction.refunded': 'refund',
  'qris.payment.refunded': 'refund',
  'transaction.reversed': 'reversal',
  'nmid.status_changed': 'nmid_status',
};

/**
 * `flow`, the path an event took: by kind when applied (both success types → transaction.created, both failed
 * types → transaction.failed_recorded, both refund types → transaction.refunded); `recorded_unapplied` for
 * every rejected event, whatever its type.
 */
export const FLOW_OF_KIND: Record<EventKind, string> = {
  success: 'transaction.created',
  failed: 'transaction.failed_recorded',
  cancelled: 'transaction.cancelled_recorded',
  refund: 'transaction.refunded',
  reversal: 'transaction.reversed',
  nmid_status: 'nmid.status_changed',
};
export const REJECTED_FLOW = 'recorded_unapplied';

/**
 * Kinds that record a transaction of their own, with its status. All three claim the bank's transaction_code
 * (unique per bank over every status), so a success cannot reuse the code of an earlier failed attempt.
 */
const RECORDED_STATUS: Partial<Record<EventKind, TransactionStatus>> = { success: 'success', failed: 'failed', cancelled: 'cancelled' };

const MERCHANT_STATUSES = ['draft', 'inactive', 'active', 'suspended', 'deleted'];
const NMID_STATUSES = ['active', 'suspended'];
const MAX_ID_LENGTH = 128;
const MAX_TEXT_LENGTH = 255;
/** The most events one recordBatch call takes: the adapter's micro-batches stay well below it. */
export const MAX_BATCH_SIZE = 500;

interface Outcome {
  status: 'success' | 'rejected';
  flow: string;
  errorCode: EventErrorCode | null;
  transactionId: string | null;
}

/**
 * One item of a batch: an event and the bank it acts for (already checked against the caller); `mdr`, what its
 * merchant's MDR is chosen from where the caller has it (else the batch reads the MDR policy).
 */
export interface BatchItem {
  input: PaymentEventInput;
  bankCode: string;
  mdr?: MerchantMdr | null;
}

export interface WarnLog {
  warn(obj: object, msg: string): void;
}

/**
 * A validated event as it is first stored, and what is left to apply: `apply` is null for an event stored as
 * it is (rejected by the event and its target alone); `records` is the status of the transaction it creates.
 */
interface Draft {
  input: PaymentEventInput;
  bankCode: string;
  event: PaymentEvent;
  apply: { kind: EventKind; target: PaymentTargetInput } | null;
  records: TransactionStatus | null;
}
/** A draft of a batch, with its position there and its merchant's MDR inputs if known. */
type BatchDraft = Draft & { index: number; mdr: MerchantMdr | null };

const rejected = (errorCode: EventErrorCode, transactionId: string | null = null): Outcome => ({
  status: 'rejected',
  flow: REJECTED_FLOW,
  errorCode,
  transactionId,
});

/**
 * Payment-event intake. Every event that passes input validation is stored in the inbox exactly once per
 * (bank, external_event_id) — a unique constraint, claimed with `insert … on conflict do nothing` — and
 * applied in the same database transaction, so an event and its effect commit together or not at all.
 */
export class PaymentEventService {
  private readonly repo: PaymentEventRepository;

  /**
   * `signal`: told the merchants whose live feed got rows, after the commit (subgraphs/transaction/src/feed-signal.ts);
   * `targets`: this subgraph's copy of what events resolve to (recordBatchFromCopy).
   */
  constructor(
    em: EntityManager,
    private readonly signal?: (merchantIds: Iterable<string>) => void,
    private readonly targets = new PaymentTargetService(em),
  ) {
    this.repo = new PaymentEventRepository(em);
  }

  /** Stores and applies one event of `bankCode` (the calling bank principal's, never the body's). */
  async record(input: PaymentEventInput, bankCode: string): Promise<PaymentEventResult> {
    const draft = draftOf(input, bankCode);
    const { event, apply } = draft;
    const feed: NewPaymentFeedRow[] = [];
    const result = await this.repo.transactional(async (tx) => {
      // A replay (also one racing the first delivery: the insert waited for it to commit).
      let answer: PaymentEventResult;
      if (await tx.claim(event)) {
        if (apply) await settle(tx, event, await this.apply(tx, apply.kind, input, apply.target, bankCode, event, feed));
        answer = resultOf(event);
      } else answer = await this.replay(tx, draft, feed);
      // Last: the feed's append lock is held until the commit (payment-feed.repository.ts).
      await tx.peer(PaymentFeedRepository).append(feed);
      return answer;
    });
    this.signal?.(feed.map((row) => row.merchant_id));
    return result;
  }

  /**
   * A delivery of an event already stored. An applied one answers duplicate_skipped with its first result. One
   * stored but not applied (rejected) is a new attempt, docs/decisions/0028-payment-event-and-settlement-intake.md: the stored
   * row takes this delivery (its body and the target resolved now) and is applied as a first delivery would be,
   * answering success or rejected afresh. The row is locked first, so concurrent replays apply it once: the
   * others then find it applied and answer duplicate_skipped.
   */
  private async replay(tx: PaymentEventRepository, draft: Draft, feed: NewPaymentFeedRow[]): Promise<PaymentEventResult> {
    const first = await tx.lockFirst(draft.bankCode, draft.input.externalEventId);
    if (!first) return archivedReplay(tx, draft);
    if (first.status !== 'rejected') return resultOf(first, 'duplicate_skipped');
    const event: PaymentEvent = { ...draft.event, id: first.id, receivedAt: first.receivedAt };
    await tx.replaceAttempt(event);
    const { apply } = draft;
    if (apply) await settle(tx, event, await this.apply(tx, apply.kind, draft.input, apply.target, draft.bankCode, event, feed));
    return resultOf(event);
  }

  /**
   * Several events, possibly of several banks, with the results `record()` would give item by item in this
   * order, in one database transaction and a handful of set-based statements: one statement claims every event
   * and records the transactions of successes, failures and cancellations (those whose transaction_code was taken
   * are stored rejected); refunds and reversals then apply one by one (they lock their original); replays are
   * answered last from one select; one statement appends the feed. Rows are inserted sorted by their unique key, so
   * concurrent batches lock them in one order. A batch with no refund, reversal or dynamic QRIS bill to settle is
   * first claimed, recorded and appended in ONE statement committed on its own (docs/decisions/0028-payment-event-and-settlement-intake.md); its replays, if
   * any, then take the transaction above. An invalid item answers its input error and stores nothing; the others
   * go on. Should a transaction fail (a deadlock between batches, a row the database refuses), it is rolled
   * back and each of its items is recorded on its own, so one bad item cannot take the others down; an item whose
   * value the database refuses on its own too answers an input error, and one that fails otherwise fails the call,
   * after the others are stored.
   */
  async recordBatch(items: readonly BatchItem[], log: WarnLog): Promise<PaymentEventOutcome[]> {
    if (items.length > MAX_BATCH_SIZE) throw new BadInputError(`at most ${MAX_BATCH_SIZE} events per batch`);
    const outcomes: PaymentEventOutcome[] = new Array(items.length);
    const answer = (d: BatchDraft, result: PaymentEventResult) => (outcomes[d.index] = { result, inputError: null, unresolved: false });
    let pending: BatchDraft[] = [];
    items.forEach(({ input, bankCode, mdr = null }, index) => {
      try {
        pending.push({ ...draftOf(input, bankCode), index, mdr });
      } catch (error) {
        if (!(error instanceof BadInputError)) throw error;
        outcomes[index] = { result: null, inputError: error.message, unresolved: false };
      }
    });

    try {
      if (pending.length > 0 && inOneStatement(pending)) {
        const { stored, appended } = await claimAndRecord(this.repo, pending, { appendFeed: true });
        stored.forEach((d) => answer(d, resultOf(d.event)));
        this.signal?.(appended.map((row) => row.merchant_id));
        const answered = new Set(stored);
        pending = pending.filter((d) => !answered.has(d));
      }
      if (pending.length > 0) {
        const feed: NewPaymentFeedRow[] = [];
        const batch = pending;
        const results = await this.repo.transactional((tx) => this.applyBatch(tx, batch, feed));
        batch.forEach((d, i) => answer(d, results[i]));
        this.signal?.(feed.map((row) => row.merchant_id));
      }
    } catch (error) {
      // Without a database one item at a time fails just the same, only slower.
      if (isConnectionFailure(error)) throw error;
      // The class and SQLSTATE only: a driver's message can quote the values of a row.
      log.warn(
        {
          error_class: (error as object | undefined)?.constructor?.name,
          sqlstate: (error as { code?: string } | undefined)?.code,
          events: pending.length,
        },
        'payment event batch failed: recording its events one by one',
      );
      let failure: unknown;
      for (const d of pending) {
        try {
          answer(d, await this.record(d.input, d.bankCode));
        } catch (itemError) {
          // A value the database refuses is that item's input error (nothing of it stored); the others still answer.
          if (isRefusedValue(itemError))
            outcomes[d.index] = { result: null, inputError: 'the database cannot store this event', unresolved: false };
          else failure ??= itemError;
        }
      }
      // The first item's own error (an AppError or a driver error), rethrown as it was caught.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (failure !== undefined) throw failure;
    }
    return outcomes;
  }

  /**
   * recordBatch with each event's target resolved from this subgraph's copy (docs/decisions/0028-payment-event-and-settlement-intake.md)
   * instead of the input's: one subgraph fetch for the adapter instead of two. An event the copy cannot resolve answers
   * `unresolved` and nothing of it is stored; the adapter records it with the target the owners resolve, so the copy
   * never decides that an NMID is unknown.
   */
  async recordBatchFromCopy(
    items: readonly { input: BankPaymentEventToResolveInput; bank: BankPrincipal }[],
    log: WarnLog,
  ): Promise<PaymentEventOutcome[]> {
    if (items.length > MAX_BATCH_SIZE) throw new BadInputError(`at most ${MAX_BATCH_SIZE} events per batch`);
    const targets = await this.targets.fromCopy(
      items.map(({ input, bank }) => ({ bank, nmid: input.nmid, mid: input.mid, tid: input.tid })),
    );
    const resolved = items.flatMap(({ input, bank }, i) => {
      const resolution = targets[i];
      return resolution ? [{ input: { ...input, target: resolution.target }, bankCode: bank.bankCode, mdr: resolution.mdr, i }] : [];
    });
    const outcomes: PaymentEventOutcome[] = items.map(() => ({ result: null, inputError: null, unresolved: true }));
    const recorded = resolved.length > 0 ? await this.recordBatch(resolved, log) : [];
    resolved.forEach(({ i }, k) => (outcomes[i] = recorded[k]));
    return outcomes;
  }

  /** recordBatch inside its transaction: the results of `drafts`, in their order. */
  private async applyBatch(
    tx: PaymentEventRepository,
    drafts: readonly BatchDraft[],
    feed: NewPaymentFeedRow[],
  ): Promise<PaymentEventResult[]> {
    const { stored, created } = await claimAndRecord(tx, drafts);
    const recording = stored.filter((d) => d.records);
    // Dynamic QRIS payments settled by the successes just recorded, in bill-number order (the order their rows lock in).
    const successes = recording.filter((d) => d.records === 'success' && created.has(d.event.transactionId!));
    const qris = tx.peer(QrisPaymentRepository);
    for (const d of sortedBy(successes, feedOrder)) {
      const success = recordedSuccess(d.event, d.input, d.apply!.target, d.bankCode);
      feed.push(feedRowOf(success, d.apply!.target.terminalId ?? null, d.input.transactionCode!, await matchQrisPayment(qris, success)));
    }

    // Refunds and reversals in batch order, each seeing only the transactions of the events before it.
    for (const d of stored) {
      const { apply } = d;
      if (apply && (apply.kind === 'refund' || apply.kind === 'reversal')) {
        const unseen = recording.filter((c) => c.index > d.index && created.has(c.event.transactionId!)).map((c) => c.event.transactionId!);
        await settle(tx, d.event, await this.applyToOriginal(tx, apply.kind, d.input, apply.target.merchantId, d.bankCode, unseen));
      }
    }

    const results = new Map<Draft, PaymentEventResult>(stored.map((d) => [d, resultOf(d.event)]));
    // Replays, of earlier deliveries or of an event earlier in this batch: an applied first event's final answer;
    // one stored but not applied is attempted again (replay()), one delivery at a time in key order.
    const replays = drafts.filter((d) => !results.has(d));
    if (replays.length > 0) {
      const keys = firstPer(replays, eventKeyOf).map(eventKeyOf);
      const firstOf = new Map<string, PaymentEvent>();
      for (const event of await tx.byKeys(keys)) firstOf.set(keyOf([event.bankCode, event.externalEventId]), event);
      const unapplied: Draft[] = [];
      for (const d of replays) {
        const first = firstOf.get(keyOf(eventKeyOf(d)));
        if (!first) results.set(d, await archivedReplay(tx, d));
        else if (first.status === 'rejected') unapplied.push(d);
        else results.set(d, resultOf(first, 'duplicate_skipped'));
      }
      for (const d of sortedBy(unapplied, eventKeyOf)) results.set(d, await this.replay(tx, d, feed));
    }
    // Last: the feed's append lock is held until the commit (payment-feed.repository.ts).
    await tx.peer(PaymentFeedRepository).append(feed);
    return drafts.map((d) => results.get(d)!);
  }

  /**
   * The adapter applied an nmid.status_changed in the outlet subgraph. Idempotent; any other event is already
   * applied and comes back unchanged. Only the bank's own events: another bank's id is NOT_FOUND.
   */
  async markApplied(eventId: string, bankCode: string): Promise<PaymentEventResult> {
    if (!UUID_PATTERN.test(eventId)) throw new PaymentEventNotFoundError();
    const event = await this.repo.markApplied(eventId, bankCode);
    if (!event) throw new PaymentEventNotFoundError();
    return resultOf(event);
  }

  private async apply(
    tx: PaymentEventRepository,
    kind: EventKind,
    input: PaymentEventInput,
    target: PaymentTargetInput,
    bankCode: string,
    event: PaymentEvent,
    feed: NewPaymentFeedRow[],
  ): Promise<Outcome> {
    const applied: Outcome = { status: 'success', flow: FLOW_OF_KIND[kind], errorCode: null, transactionId: event.transactionId ?? null };
    const status = RECORDED_STATUS[kind];
    if (status) {
      const created = await this.insertTransaction(tx, status, input, target, bankCode, event.transactionId!);
      // The code belongs to another event's transaction (a replay of this event never gets here): that one is not named.
      if (!created) return rejected('duplicate_transaction_code');
      if (status === 'success') {
        const success = recordedSuccess(event, input, target, bankCode);
        feed.push(
          feedRowOf(
            success,
            target.terminalId ?? null,
            input.transactionCode!,
            await matchQrisPayment(tx.peer(QrisPaymentRepository), success),
          ),
        );
      }
      return applied;
    }
    if (kind === 'refund' || kind === 'reversal') return this.applyToOriginal(tx, kind, input, target.merchantId, bankCode);
    return applied; // nmid_status: stored only; the adapter applies it in the outlet subgraph, then markApplied
  }

  /**
   * Records a success, failed or cancelled transaction (transactionRow). False when the bank's
   * transaction_code already belongs to another transaction.
   */
  private async insertTransaction(
    tx: PaymentEventRepository,
    status: TransactionStatus,
    input: PaymentEventInput,
    target: PaymentTargetInput,
    bankCode: string,
    transactionId: string,
  ): Promise<boolean> {
    const mdrRate =
      status === 'success'
        ? rateOf((await tx.peer(MdrRepository).ofMerchants([target])).get(target.merchantId.toLowerCase()), input)
        : '0.0000';
    // The unique (bank_code, transaction_code) decides concurrent events with one code: one wins.
    return tx.insertTransaction(transactionRow(status, input, target, bankCode, transactionId, mdrRate, new Date()));
  }

  /**
   * Refund or reversal of an earlier transaction of the same bank and merchant, found by transaction_code,
   * else reference_number, else rrn: the first identifier given that matches (the earliest transaction when
   * several do). The original is locked, so concurrent refunds add up exactly. A refund adds its
   * gross_amount (default: all that is left) to refunded_amount and turns the status to refunded once
   * everything is refunded; a reversal sets reversed (refunded_amount kept). Amounts, MDR and settlement
   * fields of the original stay as they are. A rejected one still names the original it found. `unseen`:
   * transactions a batch created for events after this one, which a call in turn would not find yet.
   */
  private async applyToOriginal(
    tx: PaymentEventRepository,
    kind: 'refund' | 'reversal',
    input: PaymentEventInput,
    merchantId: string,
    bankCode: string,
    unseen: readonly string[] = [],
  ): Promise<Outcome> {
    const original = await findOriginal(tx, bankCode, merchantId, input, unseen);
    if (!original) return rejected('original_not_found');
    if (kind === 'refund') {
      // Only a success (possibly partly refunded) can be refunded; a refunded one has nothing left.
      if (original.status === 'refunded') return rejected('refund_exceeds_original', original.id);
      if (original.status !== 'success') return rejected('original_not_eligible', original.id);
      const left = original.grossAmount - original.refundedAmount;
      const amount = input.grossAmount ?? left;
      if (amount > left || left === 0) return rejected('refund_exceeds_original', original.id);
      await tx.refund(original.id, amount);
    } else {
      // Only a success (possibly partly refunded) can be reversed: not a failed, cancelled, pending, refunded or reversed one.
      if (original.status !== 'success') return rejected('original_not_eligible', original.id);
      await tx.reverse(original.id);
    }
    return { status: 'success', flow: FLOW_OF_KIND[kind], errorCode: null, transactionId: original.id };
  }
}

async function findOriginal(
  tx: PaymentEventRepository,
  bankCode: string,
  merchantId: string,
  input: PaymentEventInput,
  unseen: readonly string[],
): Promise<Transaction | null> {
  const keys: [column: 'transaction_code' | 'external_reference' | 'rrn', value: string | null | undefined][] = [
    ['transaction_code', input.transactionCode],
    ['external_reference', input.referenceNumber],
    ['rrn', input.rrn],
  ];
  for (const [column, value] of keys) {
    if (value == null) continue;
    const original = await tx.lockOriginal(bankCode, merchantId, column, value, unseen);
    if (original) return original;
  }
  return null;
}

function recordedSuccess(event: PaymentEvent, input: PaymentEventInput, target: PaymentTargetInput, bankCode: string): RecordedSuccess {
  return {
    eventId: event.id,
    bankCode,
    nmid: input.nmid,
    merchantId: target.merchantId,
    outletId: target.outletId,
    transactionId: event.transactionId!,
    referenceNumber: input.referenceNumber,
    grossAmount: input.grossAmount!,
    transactionAt: input.transactionAt,
  };
}

/** Validates an event (BadInputError) and builds it as it is first stored, as `bankCode`'s. */
function draftOf(input: PaymentEventInput, bankCode: string): Draft {
  const kind = validateEvent(input);
  const target = input.target ?? null;
  const early = earlyRejection(kind, target);
  const records = (!early && kind && RECORDED_STATUS[kind]) || null;
  const event: PaymentEvent = {
    id: uuidv7(),
    bankCode,
    externalEventId: input.externalEventId,
    eventType: input.eventType,
    payload: input.payload,
    nmid: input.nmid,
    merchantId: target?.merchantId ?? null,
    outletId: target?.outletId ?? null,
    multiOutlet: target?.multiOutlet ?? false,
    terminalId: target?.terminalId ?? null,
    // The id of the transaction this event will create: written with the event (the reference is deferred).
    transactionId: records ? uuidv7() : null,
    status: early ? 'rejected' : 'success',
    flow: early || !kind ? REJECTED_FLOW : FLOW_OF_KIND[kind],
    errorCode: early,
    // False only for an accepted nmid.status_changed: the NMID lives in the outlet subgraph, where the adapter
    // applies it and then calls markApplied. Every other event, rejected ones included, has nothing left to apply.
    // A replay answers the stored value, so a replay of one not yet applied tells the adapter to try again.
    applied: !(kind === 'nmid_status' && !early),
    appliedAt: null,
    receivedAt: new Date(),
  };
  return { input, bankCode, event, apply: !early && kind && target ? { kind, target } : null, records };
}

/**
 * A replay of an event whose first delivery is in an archived month (docs/decisions/0208-partitioned-history.md): its key
 * is claimed, so nothing is stored; the answer is duplicate_skipped with the first delivery's event_id, flow, merchant
 * and transaction, read from the `archive` schema. An archived event is final: nothing of it is attempted or applied
 * again (its row is no longer writable), so the answer is applied and names no error (a first delivery stored rejected
 * keeps its flow, recorded_unapplied). When the archived table is gone too, only the key is left: the answer names the
 * first delivery's event_id, with the flow and merchant this delivery resolves to, and no transaction.
 */
async function archivedReplay(tx: PaymentEventRepository, draft: Draft): Promise<PaymentEventResult> {
  const first = await tx.archivedFirst(draft.bankCode, draft.input.externalEventId);
  if (!first) throw new Error('a claimed event key without its key row');
  const known = first.status ? first : { ...draft.event, id: first.id, transactionId: null };
  return { ...resultOf(known, 'duplicate_skipped'), errorCode: null, applied: true };
}

/** Writes what applying a stored event came to, when it is not the state it was stored in. */
async function settle(tx: PaymentEventRepository, event: PaymentEvent, outcome: Outcome): Promise<void> {
  if (outcome.status === event.status && outcome.transactionId === event.transactionId) return;
  await tx.writeOutcome(event.id, event.receivedAt, outcome);
  Object.assign(event, outcome);
}

const eventKeyOf = (d: Draft): [string, string] => [d.bankCode, d.input.externalEventId];

/**
 * Stores the first event of each (bank, external_event_id) of a batch and records the transactions of the stored
 * success, failed and cancelled ones, in one statement (PaymentEventRepository.claimAndRecord): keys in key order and
 * codes in code order, so concurrent batches lock them in one order. Of the stored events with one bank's
 * transaction_code the first in the batch tries; the others, and one whose code was taken before, are stored rejected
 * (duplicate_transaction_code). A success pays the MDR rate the policy gives its merchant, amount and time, from the
 * caller's policy rows, else from those read for all of them in one query. Returns the drafts stored (any other is a replay, of an earlier delivery or of an event earlier in the
 * batch) and the ids of the transactions created. With `appendFeed` (a batch inOneStatement, outside a transaction) the
 * statement also appends the feed rows of the transactions it created, returned as `appended`.
 */
async function claimAndRecord<D extends BatchDraft>(
  tx: PaymentEventRepository,
  drafts: readonly D[],
  { appendFeed = false } = {},
): Promise<{ stored: D[]; created: Set<string>; appended: NewPaymentFeedRow[] }> {
  const firsts = firstPer(drafts, eventKeyOf);
  const recording = firsts.filter((d) => d.records);
  const unrated = recording.filter((d) => d.records === 'success' && d.mdr == null);
  const mdrs = await tx.peer(MdrRepository).ofMerchants(unrated.map((d) => d.apply!.target));
  const rateOfDraft = (d: D): string =>
    d.records !== 'success' ? '0.0000' : rateOf(d.mdr ?? mdrs.get(d.apply!.target.merchantId.toLowerCase()), d.input);
  const now = new Date();
  // A stable sort: of one code, batch order.
  const transactions = sortedBy(recording, (d) => [d.bankCode, d.input.transactionCode!]).map((d) =>
    transactionRow(d.records!, d.input, d.apply!.target, d.bankCode, d.event.transactionId!, rateOfDraft(d), now),
  );
  // The feed rows of the successes (no bill to settle: inOneStatement), in the order applyBatch appends them.
  const feedRowOfSuccess = (d: D) =>
    feedRowOf(
      recordedSuccess(d.event, d.input, d.apply!.target, d.bankCode),
      d.apply!.target.terminalId ?? null,
      d.input.transactionCode!,
      NO_BILL,
    );
  const feed = appendFeed
    ? sortedBy(
        recording.filter((d) => d.records === 'success'),
        feedOrder,
      ).map(feedRowOfSuccess)
    : undefined;
  const lost = rejected('duplicate_transaction_code');
  const ids = await tx.claimAndRecord(
    sortedBy(firsts, eventKeyOf).map((d) => d.event),
    transactions,
    lost,
    feed,
  );
  const stored = new Set(ids.stored);
  const created = new Set(ids.created);
  for (const d of recording) if (stored.has(d.event.id) && !created.has(d.event.transactionId!)) Object.assign(d.event, lost);
  return {
    stored: drafts.filter((d) => stored.has(d.event.id)),
    created,
    appended: feed?.filter((row) => created.has(row.transaction_id!)) ?? [],
  };
}

/**
 * The MDR rate a success pays: the policy's rate for its merchant's criteria and segment, its amount and its
 * transaction time (mdrRateAt, docs/decisions/0240-mdr-policy.md).
 */
function rateOf(mdr: MerchantMdr | undefined, input: PaymentEventInput): string {
  const rate = mdr && mdrRateAt(mdr, input.grossAmount!, input.transactionAt);
  if (rate === undefined) throw new Error('the MDR policy has no rate for this payment');
  return rate;
}

/** The order a batch's successes settle bills and append the feed in: bill number (reference), then key. */
const feedOrder = (d: Draft): string[] => [d.input.referenceNumber ?? '', d.bankCode, d.input.externalEventId];

/**
 * Whether a batch's first deliveries need nothing but their claim, their transactions and the feed: no refund or
 * reversal (each locks its original) and no success naming a dynamic QRIS bill (it locks the bill). Such a batch is
 * one statement (recordBatch).
 */
function inOneStatement(drafts: readonly Draft[]): boolean {
  return drafts.every(
    ({ apply, records, input }) =>
      apply?.kind !== 'refund' && apply?.kind !== 'reversal' && (records !== 'success' || billNumberOf(input.referenceNumber) === null),
  );
}

/**
 * Rejections decided by the event and its target alone, in this order: an unsupported type; an NMID that did
 * not resolve; a merchant that is not active, for the kinds that record a transaction (its payments are
 * stored for reconciliation but create none); a success on a suspended NMID. Refunds and reversals correct a
 * transaction we already hold, so the merchant's and the NMID's status do not stop them; an NMID status
 * change is the bank's to make whatever the merchant's status.
 */
function earlyRejection(kind: EventKind | undefined, target: PaymentTargetInput | null): EventErrorCode | null {
  if (!kind) return 'unsupported_event_type';
  if (!target) return 'unknown_nmid';
  if (RECORDED_STATUS[kind] && target.merchantStatus !== 'active') return 'merchant_not_active';
  if (kind === 'success' && target.nmidStatus === 'suspended') return 'nmid_suspended';
  return null;
}

/**
 * Input the adapter should never send (it validates each type's body): BAD_USER_INPUT, nothing stored. An
 * unknown event type is not an input error: it is stored and rejected.
 */
function validateEvent(input: PaymentEventInput): EventKind | undefined {
  requireText('externalEventId', input.externalEventId, MAX_ID_LENGTH);
  requireText('eventType', input.eventType, MAX_ID_LENGTH);
  requireText('nmid', input.nmid, MAX_ID_LENGTH);
  for (const field of ['transactionCode', 'referenceNumber', 'rrn'] as const) optionalText(field, input[field], MAX_ID_LENGTH);
  for (const field of ['payerBankCode', 'payerBankName', 'payerNameMasked', 'nmidNewStatus'] as const) {
    optionalText(field, input[field], MAX_TEXT_LENGTH);
  }
  for (const field of ['grossAmount', 'mdrFeeBank', 'switchingFee', 'platformFee'] as const) {
    const value = input[field];
    if (value != null && value < 0) throw new BadInputError(`${field} must not be negative`);
  }
  if (Number.isNaN(input.transactionAt?.getTime())) throw new BadInputError('transactionAt must be a date-time');
  if (input.target) validateTarget(input.target);

  const kind = KIND_OF_TYPE[input.eventType];
  if (kind && RECORDED_STATUS[kind]) {
    if (input.transactionCode == null) throw new BadInputError(`transactionCode is required for ${input.eventType}`);
    if (input.grossAmount == null) throw new BadInputError(`grossAmount is required for ${input.eventType}`);
  }
  if (kind === 'refund' || kind === 'reversal') {
    if (input.transactionCode == null && input.referenceNumber == null && input.rrn == null) {
      throw new BadInputError(`${input.eventType} needs transactionCode, referenceNumber or rrn of the original`);
    }
    if (kind === 'refund' && input.grossAmount === 0) throw new BadInputError('grossAmount of a refund must be positive');
  }
  if (kind === 'nmid_status' && !NMID_STATUSES.includes(input.nmidNewStatus ?? '')) {
    throw new BadInputError('nmidNewStatus must be active or suspended');
  }
  return kind;
}

function validateTarget(target: PaymentTargetInput): void {
  for (const field of ['merchantId', 'outletId', 'terminalId'] as const) {
    const value = target[field];
    if (value != null && !UUID_PATTERN.test(value)) throw new BadInputError(`target.${field} must be a UUID`);
  }
  if (!MERCHANT_STATUSES.includes(target.merchantStatus))
    throw new BadInputError(`target.merchantStatus must be one of ${MERCHANT_STATUSES.join(', ')}`);
  if (!NMID_STATUSES.includes(target.nmidStatus)) throw new BadInputError('target.nmidStatus must be active or suspended');
  optionalText('target.categoryCode', target.categoryCode, MAX_ID_LENGTH);
  optionalText('target.businessScaleCode', target.businessScaleCode, MAX_ID_LENGTH);
}

function requireText(field: string, value: string, max: number): void {
  if (value.trim().length === 0 || value.length > max) throw new BadInputError(`${field} must be 1 to ${max} characters`);
}

function optionalText(field: string, value: string | null | undefined, max: number): void {
  if (value != null) requireText(field, value, max);
}

/**
 * A success, failed or cancelled transaction: a success pays the MDR the policy gives it (`mdrRate`, round
 * half up); failed and cancelled ones carry no MDR (rate 0, fee 0). Fees the bank reports are kept as sent
 * (0 when absent).
 */
function transactionRow(
  status: TransactionStatus,
  input: PaymentEventInput,
  target: PaymentTargetInput,
  bankCode: string,
  transactionId: string,
  mdrRate: string,
  now: Date,
): NewTransactionRow {
  const gross = input.grossAmount!;
  const mdrFee = mdrFeeOf(gross, mdrRate);
  return {
    id: transactionId,
    merchant_id: target.merchantId,
    outlet_id: target.outletId,
    terminal_id: target.terminalId ?? null,
    bank_code: bankCode,
    nmid: input.nmid,
    transaction_code: input.transactionCode,
    external_reference: input.referenceNumber ?? null,
    rrn: input.rrn ?? null,
    status,
    gross_amount: gross,
    payer_bank_code: input.payerBankCode ?? null,
    payer_bank_name: input.payerBankName ?? null,
    payer_name_masked: input.payerNameMasked ?? null,
    payment_method: 'qris',
    currency: 'IDR',
    mdr_rate: mdrRate,
    mdr_fee_amount: mdrFee,
    net_amount_after_mdr: gross - mdrFee,
    mdr_fee_bank: input.mdrFeeBank ?? 0,
    switching_fee: input.switchingFee ?? 0,
    platform_fee: input.platformFee ?? 0,
    transaction_at: input.transactionAt,
    created_at: now,
    updated_at: now,
  };
}

const keyOf = (parts: readonly string[]): string => JSON.stringify(parts);

/** The first item of each key, in their order. */
function firstPer<T>(items: readonly T[], key: (item: T) => readonly string[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = keyOf(key(item));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Sorted by a unique key (plain code-unit order: the same in every batch, which is all lock ordering needs). */
function sortedBy<T>(items: readonly T[], key: (item: T) => readonly string[]): T[] {
  const keyed = items.map((item) => ({ item, k: key(item) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i] < b.k[i] ? -1 : 1;
    return 0;
  });
  return keyed.map(({ item }) => item);
}

/** The answer; a duplicate repeats the first event's (with status duplicate_skipped). */
function resultOf(event: PaymentEvent, status: string = event.status): PaymentEventResult {
  return {
    eventId: event.id,
    status,
    flow: event.flow,
    merchantId: event.merchantId ?? null,
    // psp-api.md §1: the outlet is named only for multi-outlet merchants.
    outletId: event.multiOutlet ? (event.outletId ?? null) : null,
    transactionId: event.transactionId ?? null,
    errorCode: event.errorCode ?? null,
    applied: event.applied,
  };
}
