import { Migration } from '@mikro-orm/migrations';

/**
 * App users (phone login, core-api.md) and their membership of a merchant with an enterprise role
 * (partner-api.md §1: owner, admin, staff, viewer). Sessions, OTP, devices and settings hang off `users`.
 */
export class Migration20261124000000_users extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.users (
        id uuid primary key,
        phone text not null unique check (phone ~ '^\\+62[0-9]{8,13}$'),
        full_name text,
        display_name text,
        nik text,
        gender text,
        address_line text,
        avatar_url text,
        email text,
        email_verified_at timestamptz,
        phone_verified_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create table merchant.merchant_users (
        id uuid primary key,
        merchant_id uuid not null references merchant.merchants (id),
        user_id uuid not null references merchant.users (id),
        role text not null check (role in ('owner', 'admin', 'staff', 'viewer')),
        -- outlets the member may act on; empty means all outlets (owner, or a viewer of all)
        outlet_ids uuid[] not null default '{}',
        -- staff may be limited to one device (terminal id of the outlet subgraph)
        terminal_id uuid,
        created_at timestamptz not null,
        revoked_at timestamptz
      );
      create unique index merchant_users_live_uq on merchant.merchant_users (merchant_id, user_id) where revoked_at is null;
      create index merchant_users_user_idx on merchant.merchant_users (user_id) where revoked_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table merchant.merchant_users, merchant.users;');
  }
}
