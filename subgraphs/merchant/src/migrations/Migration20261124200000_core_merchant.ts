import { Migration } from '@mikro-orm/migrations';

/**
 * Core API merchant side (core-api.md §2–§4): registration requests (their own table, not merchants), the
 * registration data an approved merchant carries (business type and scale, consents, review), and feedback.
 */
export class Migration20261124200000_core_merchant extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.merchant_registrations (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        status text not null check (status in ('pending', 'pending_review')),
        -- reserved at registration and kept by the approved merchant
        merchant_code text not null unique,
        merchant_name text not null check (length(merchant_name) between 1 and 200),
        business_entity_type text not null check (business_entity_type in ('Perseorangan', 'Badan Usaha')),
        business_type_id integer not null references merchant.business_types (id),
        business_type_code text not null,
        business_type_name text not null,
        mcc text not null,
        average_monthly_revenue bigint not null check (average_monthly_revenue >= 0),
        employee_count integer not null check (employee_count >= 0),
        business_scale_code text not null,
        business_scale_name text not null,
        -- null: a direct registration (no code, or no active partner holds it)
        referral_code text,
        contact_phone text not null check (contact_phone ~ '^\\+62[0-9]{8,13}$'),
        contact_email text,
        address_line text,
        country_name text,
        province_name text,
        city_name text,
        district_name text,
        subdistrict_name text,
        postal_code text,
        region_ids jsonb not null default '{}',
        review_notes text,
        reviewed_by_user_id uuid,
        device_fee_service_accepted boolean not null default false,
        terms_of_service_accepted boolean not null default false,
        privacy_policy_accepted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      -- at most one open registration per user; concurrent submissions have exactly one winner
      create unique index merchant_registrations_open_user_uq on merchant.merchant_registrations (user_id)
        where status in ('pending', 'pending_review');

      alter table merchant.merchants
        add column business_entity_type text check (business_entity_type in ('Perseorangan', 'Badan Usaha')),
        add column business_type_id integer,
        add column business_scale_code text,
        add column business_scale_name text,
        add column average_monthly_revenue bigint check (average_monthly_revenue >= 0),
        add column employee_count integer check (employee_count >= 0),
        add column address_district text,
        add column address_subdistrict text,
        add column region_ids jsonb not null default '{}',
        add column device_fee_service_accepted boolean not null default false,
        add column terms_of_service_accepted boolean not null default false,
        add column privacy_policy_accepted boolean not null default false,
        add column reviewed_at timestamptz,
        add column review_notes text,
        add column reviewed_by_user_id uuid;
      create index merchant_users_owner_idx on merchant.merchant_users (merchant_id) where role = 'owner' and revoked_at is null;

      create table merchant.feedback (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        merchant_id uuid references merchant.merchants (id),
        category_code text not null check (category_code ~ '^[a-z][a-z0-9_]{1,49}$'),
        category_label text not null check (length(category_label) between 1 and 100),
        rating smallint check (rating between 1 and 5),
        message text check (length(message) <= 2000),
        contact_phone text check (contact_phone ~ '^\\+62[0-9]{8,13}$'),
        allow_follow_up boolean not null default false,
        source text not null check (source in ('mobile_app')),
        created_at timestamptz not null
      );
      create index feedback_user_idx on merchant.feedback (user_id, created_at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.feedback, merchant.merchant_registrations;
      drop index merchant.merchant_users_owner_idx;
      alter table merchant.merchants
        drop column business_entity_type, drop column business_type_id, drop column business_scale_code, drop column business_scale_name,
        drop column average_monthly_revenue, drop column employee_count, drop column address_district, drop column address_subdistrict,
        drop column region_ids, drop column device_fee_service_accepted, drop column terms_of_service_accepted,
        drop column privacy_policy_accepted, drop column reviewed_at, drop column review_notes, drop column reviewed_by_user_id;
    `);
  }
}
