import { Migration } from '@mikro-orm/migrations';

/**
 * The MDR as a dated policy (docs/decisions/0240-mdr-policy.md): `mdr_policy` holds Bank Indonesia's QRIS MDR rules,
 * each for a segment, a merchant criteria (null: every criteria), an amount band and a period; intake applies the row
 * in force at the transaction's time. `mdr_segments.rate` is no longer read. A public service segment (BLU/PSO) joins
 * the special segments. `mdr_rerates` audits the operator's re-rating of a merchant's period (`ops fees:rerate`).
 */
export class Migration20261216100000_mdr_policy extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      insert into "transaction".mdr_segments (segment, rate, is_default, description) values
        ('public_service', 0.0040, false, 'public service bodies (BLU) and public service obligations (PSO): public transport, utilities')
        on conflict (segment) do nothing;
      insert into "transaction".mdr_category_segments (category_code, segment) values
        ('4111', 'public_service'), ('4112', 'public_service'), ('4131', 'public_service'), ('4900', 'public_service')
        on conflict (category_code) do nothing;

      create table "transaction".mdr_policy (
        id integer generated always as identity primary key,
        segment text not null references "transaction".mdr_segments (segment),
        criteria text constraint mdr_policy_criteria_check check (criteria in ('UMI', 'UKE', 'UME', 'UBE', 'URE')),
        amount_from bigint not null default 0,
        amount_to bigint,
        effective_from timestamptz not null,
        effective_to timestamptz,
        rate numeric(6, 4) not null constraint mdr_policy_rate_check check (rate >= 0 and rate < 1),
        source text not null,
        constraint mdr_policy_amounts_check check (amount_from >= 0 and (amount_to is null or amount_to >= amount_from)),
        constraint mdr_policy_period_check check (effective_to is null or effective_to > effective_from)
      );
      create index mdr_policy_segment_idx on "transaction".mdr_policy (segment);

      -- Bank Indonesia's QRIS MDR, times at 00:00 Asia/Jakarta. Bands are whole rupiah, both ends inclusive.
      insert into "transaction".mdr_policy (segment, criteria, amount_from, amount_to, effective_from, effective_to, rate, source) values
        ('regular', null, 0, null, '2020-04-01T00:00:00+07:00', null, 0.0070, 'BI QRIS MDR from 1 April 2020: regular 0.7 %'),
        ('education', null, 0, null, '2020-04-01T00:00:00+07:00', null, 0.0060, 'BI QRIS MDR from 1 April 2020: education 0.6 %'),
        ('fuel', null, 0, null, '2020-04-01T00:00:00+07:00', null, 0.0040, 'BI QRIS MDR from 1 April 2020: fuel stations (SPBU) 0.4 %'),
        ('public_service', null, 0, null, '2020-04-01T00:00:00+07:00', null, 0.0040, 'BI QRIS MDR from 1 April 2020: BLU and PSO 0.4 %'),
        ('government_social', null, 0, null, '2020-04-01T00:00:00+07:00', null, 0.0000, 'BI QRIS MDR from 1 April 2020: G2P, P2G and social donations 0 %'),
        ('regular', 'UMI', 0, null, '2020-04-01T00:00:00+07:00', '2021-09-01T00:00:00+07:00', 0.0000, 'BI relief: micro merchants 0 % until 31 August 2021'),
        ('regular', 'UMI', 0, null, '2021-09-01T00:00:00+07:00', '2023-07-01T00:00:00+07:00', 0.0030, 'BI: micro merchants 0.3 % from 1 September 2021'),
        ('regular', 'UMI', 0, 100000, '2023-07-01T00:00:00+07:00', '2024-12-01T00:00:00+07:00', 0.0000, 'BI: micro merchants 0 % up to Rp100.000 from 1 July 2023'),
        ('regular', 'UMI', 100001, null, '2023-07-01T00:00:00+07:00', '2024-12-01T00:00:00+07:00', 0.0030, 'BI: micro merchants 0.3 % above Rp100.000 from 1 July 2023'),
        ('regular', 'UMI', 0, 500000, '2024-12-01T00:00:00+07:00', null, 0.0000, 'BI: micro merchants 0 % up to Rp500.000 from 1 December 2024'),
        ('regular', 'UMI', 500001, null, '2024-12-01T00:00:00+07:00', null, 0.0030, 'BI: micro merchants 0.3 % above Rp500.000 from 1 December 2024');

      create table "transaction".mdr_rerates (
        id uuid primary key,
        merchant_id uuid not null,
        period_from timestamptz not null,
        period_before timestamptz not null,
        criteria text not null,
        reason text not null,
        requested_by text not null,
        transactions integer not null,
        changed integer not null,
        fee_before bigint not null,
        fee_after bigint not null,
        at timestamptz not null,
        constraint mdr_rerates_period_check check (period_before > period_from)
      );
      create index mdr_rerates_merchant_idx on "transaction".mdr_rerates (merchant_id, at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table "transaction".mdr_rerates;
      drop table "transaction".mdr_policy;
      delete from "transaction".mdr_category_segments where segment = 'public_service';
      delete from "transaction".mdr_segments where segment = 'public_service';
    `);
  }
}
