import { Migration } from '@mikro-orm/migrations';

/**
 * Cache invalidation at the source (docs/decisions/0010-caches-and-copies.md): a change that per-process
 * caches of the REST adapters and the gateway hold (a revoked session, credential or membership, a merchant's
 * status) sends `kind:key` on the channel `qris_invalidate`. PostgreSQL delivers a NOTIFY only when its transaction
 * commits, so no code path can forget it or send it for a change that rolled back. The merchant process relays the
 * channel to Redis, where every REST and gateway copy listens (lib/events/cache-invalidation.ts).
 */
export class Migration20261129400000_cache_invalidation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function merchant.notify_cache_invalidation() returns trigger language plpgsql as $$
      begin
        -- TG_ARGV[0]: the kind; TG_ARGV[1]: the column whose new value is the key.
        perform pg_notify('qris_invalidate', TG_ARGV[0] || ':' || (to_jsonb(new) ->> TG_ARGV[1]));
        return null;
      end $$;

      create trigger user_sessions_invalidate after update of revoked_at on merchant.user_sessions
        for each row when (old.revoked_at is distinct from new.revoked_at)
        execute function merchant.notify_cache_invalidation('session', 'id');
      create trigger partner_credentials_invalidate after update on merchant.partner_credentials
        for each row when (old is distinct from new)
        execute function merchant.notify_cache_invalidation('partner_credential', 'credential_key');
      create trigger partners_invalidate after update of status on merchant.partners
        for each row when (old.status is distinct from new.status)
        execute function merchant.notify_cache_invalidation('partner', 'id');
      create trigger bank_credentials_invalidate after update on merchant.bank_credentials
        for each row when (old is distinct from new)
        execute function merchant.notify_cache_invalidation('bank_credential', 'key_id');
      create trigger merchant_users_invalidate after update on merchant.merchant_users
        for each row when (old is distinct from new)
        execute function merchant.notify_cache_invalidation('membership', 'user_id');
      create trigger merchants_invalidate after update of status on merchant.merchants
        for each row when (old.status is distinct from new.status)
        execute function merchant.notify_cache_invalidation('merchant', 'id');
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger merchants_invalidate on merchant.merchants;
      drop trigger merchant_users_invalidate on merchant.merchant_users;
      drop trigger bank_credentials_invalidate on merchant.bank_credentials;
      drop trigger partners_invalidate on merchant.partners;
      drop trigger partner_credentials_invalidate on merchant.partner_credentials;
      drop trigger user_sessions_invalidate on merchant.user_sessions;
      drop function merchant.notify_cache_invalidation();
    `);
  }
}
