import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Orm } from '@lib/db/orm';
import { PaymentEventService } from '../payment-event/payment-event.service';
import type { PaymentEventInput } from '../payment-event/payment-event.type';
import { listPartitions } from './partition.service';

/**
 * What the partition suites (partition.spec.ts, partition-archive.spec.ts) do on their transaction database: raw SQL,
 * the partition a row landed in, the partitions of a table, and payment events of one merchant recorded through the
 * intake's service as `bank`. `orm` is read at each call (the suites open it in beforeAll).
 */
export function partitionTestKit(orm: () => Orm, options: { bank: string; tag: string; nmid: string; grossAmount: number }) {
  const fork = () => orm().em.fork() as EntityManager;
  const sql = async <T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (
      await orm()
        .em.getKnex()
        .raw(text, params as never[])
    ).rows as T[];
  const partitionOf = async (table: string, id: string) =>
    (await sql<{ p: string }>(`select tableoid::regclass::text as p from "transaction".${table} where id = ?`, [id]))[0]?.p;
  const names = async (table: string) => (await listPartitions(fork())).filter((p) => p.table === table).map((p) => p.partition);

  const merchantId = uuidv7();
  let seq = 0;
  const event = (over: Partial<PaymentEventInput> = {}): PaymentEventInput => {
    seq += 1;
    return {
      externalEventId: `evt-${options.tag}-${seq}-${uuidv7()}`,
      eventType: 'transaction.success',
      payload: { n: seq },
      nmid: options.nmid,
      transactionCode: `TRX-${options.tag.toUpperCase()}-${seq}-${uuidv7()}`,
      transactionAt: new Date(),
      grossAmount: options.grossAmount,
      target: {
        merchantId,
        merchantStatus: 'active',
        categoryCode: '5814',
        outletId: uuidv7(),
        multiOutlet: false,
        terminalId: null,
        nmidStatus: 'active',
      },
      ...over,
    };
  };
  const record = (input: PaymentEventInput) => new PaymentEventService(fork()).record(input, options.bank);
  return { fork, sql, partitionOf, names, merchantId, event, record };
}
