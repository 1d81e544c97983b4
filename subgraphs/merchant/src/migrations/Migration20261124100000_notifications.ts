import { Migration } from '@mikro-orm/migrations';

/**
 * Notifications (core-api.md §4, §6): every message sent through a provider (messaging, push, email) with the
 * provider's message id and its delivery status, and the users' push tokens per device. `device_hash` is the
 * SHA-256 of the app's device id (a device id lets a trusted device log in, so it is kept like a credential).
 */
export class Migration20261124100000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.push_tokens (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        device_hash text not null,
        device_name text,
        token text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- set when the provider reported the token unregistered or the device was untrusted
        invalidated_at timestamptz
      );
      -- a provider token belongs to one device; registering it again moves it
      create unique index push_tokens_token_uq on merchant.push_tokens (token);
      create unique index push_tokens_user_device_uq on merchant.push_tokens (user_id, device_hash);
      create index push_tokens_user_idx on merchant.push_tokens (user_id) where invalidated_at is null;

      create table merchant.notification_messages (
        id uuid primary key,
        channel text not null check (channel in ('messaging', 'push', 'email')),
        provider text not null,
        recipient text not null,
        -- the user's phone (filter of dev:outbox); null for an email address without user
        phone text,
        user_id uuid,
        template text not null,
        -- sensitive values (codes, link tokens) are kept only by the log provider outside production
        parameters jsonb not null,
        provider_message_id text,
        status text not null check (status in ('logged', 'accepted', 'sent', 'delivered', 'read', 'failed', 'invalid_token')),
        error text,
        created_at timestamptz not null,
        status_at timestamptz not null
      );
      create unique index notification_messages_provider_id_uq on merchant.notification_messages (provider, provider_message_id)
        where provider_message_id is not null;
      create index notification_messages_phone_idx on merchant.notification_messages (phone, created_at desc);
      create index notification_messages_created_idx on merchant.notification_messages (created_at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table merchant.notification_messages, merchant.push_tokens;');
  }
}
