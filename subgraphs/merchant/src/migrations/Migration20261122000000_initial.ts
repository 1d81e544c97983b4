import { Migration } from '@mikro-orm/migrations';

/** Reference data (regions, business types and scales), legal documents and the merchant aggregate root. */
export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.provinces (
        id integer primary key,
        code text not null unique,
        name text not null
      );
      create table merchant.cities (
        id integer primary key,
        code text not null unique,
        province_id integer not null references merchant.provinces (id),
        name text not null,
        type text not null
      );
      create index cities_province_id_name_idx on merchant.cities (province_id, name);
      create table merchant.districts (
        id integer primary key,
        code text not null unique,
        city_id integer not null references merchant.cities (id),
        name text not null
      );
      create index districts_city_id_name_idx on merchant.districts (city_id, name);
      create table merchant.subdistricts (
        id bigint primary key,
        code text not null unique,
        district_id integer not null references merchant.districts (id),
        name text not null,
        type text not null check (type in ('Desa', 'Kelurahan', 'Desa Adat')),
        lat double precision check (lat between -90 and 90),
        lng double precision check (lng between -180 and 180)
      );
      create index subdistricts_district_id_name_idx on merchant.subdistricts (district_id, name);
      create table merchant.postal_codes (
        id bigint generated always as identity primary key,
        subdistrict_id bigint not null references merchant.subdistricts (id),
        code text not null check (code ~ '^[0-9]{5}$'),
        name text not null,
        unique (subdistrict_id, code)
      );
      create table merchant.reference_imports (
        source text primary key,
        checksum text not null,
        row_count integer not null,
        imported_at timestamptz not null
      );

      create table merchant.business_type_categories (
        id integer primary key,
        code text not null unique,
        name text not null
      );
      create table merchant.business_types (
        id integer primary key,
        code text not null unique,
        name text not null,
        category_id integer not null references merchant.business_type_categories (id),
        mcc text not null check (mcc ~ '^[0-9]{4}$'),
        benchmark_transactions integer not null check (benchmark_transactions >= 0),
        benchmark_ticket_size bigint not null check (benchmark_ticket_size >= 0),
        base_operational_cost_rate numeric(5, 4) not null check (base_operational_cost_rate between 0 and 1),
        is_active boolean not null,
        qris_supported boolean not null
      );
      create table merchant.business_scales (
        id integer primary key,
        code text not null unique,
        name text not null,
        modal_usaha_min bigint not null,
        modal_usaha_max bigint,
        omzet_per_bulan_min bigint not null,
        omzet_per_bulan_max bigint,
        jumlah_karyawan_min integer not null,
        jumlah_karyawan_max integer,
        sort_order integer not null
      );

      create table merchant.legal_documents (
        code text primary key,
        title text not null,
        version text not null,
        status text not null,
        page_title text not null,
        hero_title text not null,
        hero_subtitle text not null,
        info_title text not null,
        info_description text not null,
        support_title text not null,
        support_body text not null,
        sections jsonb not null,
        published_at timestamptz not null,
        updated_at timestamptz not null
      );

      create table merchant.merchants (
        id uuid primary key,
        merchant_code text not null unique check (merchant_code ~ '^MRC-'),
        name text not null,
        status text not null check (status in ('draft', 'inactive', 'active', 'suspended', 'deleted')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.merchants, merchant.legal_documents, merchant.business_scales, merchant.business_types,
        merchant.business_type_categories, merchant.reference_imports, merchant.postal_codes, merchant.subdistricts,
        merchant.districts, merchant.cities, merchant.provinces;
    `);
  }
}
