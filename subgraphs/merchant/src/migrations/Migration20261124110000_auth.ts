import { Migration } from '@mikro-orm/migrations';

/**
 * Phone login (core-api.md §4 auth, §2 Session and Account settings): one-time passwords, trusted devices,
 * sessions with rotating refresh tokens, device-login cancellation links, account settings and the audit
 * of external phone verifications. Codes and tokens are stored only as keyed or plain hashes (see
 * docs/decisions/0041-codes-and-device-trust.md, 0043-sessions-and-refresh-rotation.md); device ids as SHA-256 (`device_hash`, a trusted device id is a credential).
 */
export class Migration20261124110000_auth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.otp_challenges (
        id uuid primary key,
        purpose text not null check (purpose in ('login', 'email')),
        -- login: the phone (E.164); email: the user id. Cooldown, caps and supersession are per (purpose, subject).
        subject text not null,
        email text,
        method text not null,
        -- HMAC-SHA256 of "<id>:<code>" under a key derived from SECRETS_ENCRYPTION_KEY
        code_hash text not null,
        attempts integer not null default 0 check (attempts >= 0),
        client_address text,
        device_hash text,
        platform_code text,
        device_name text,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        consumed_at timestamptz,
        superseded_at timestamptz
      );
      create index otp_challenges_subject_idx on merchant.otp_challenges (purpose, subject, created_at desc);
      create index otp_challenges_address_idx on merchant.otp_challenges (client_address, created_at desc) where client_address is not null;

      create table merchant.trusted_devices (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        device_hash text not null,
        platform_code text,
        device_name text,
        trusted_at timestamptz not null,
        last_seen_at timestamptz not null,
        revoked_at timestamptz
      );
      create unique index trusted_devices_live_uq on merchant.trusted_devices (user_id, device_hash) where revoked_at is null;

      create table merchant.user_sessions (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        device_hash text,
        platform_code text,
        device_name text,
        auth_method text not null check (auth_method in ('otp', 'trusted_device', 'external')),
        created_at timestamptz not null,
        -- absolute end of the session: refreshing never extends it
        expires_at timestamptz not null,
        revoked_at timestamptz,
        revoke_reason text,
        check ((revoked_at is null) = (revoke_reason is null))
      );
      create index user_sessions_user_idx on merchant.user_sessions (user_id) where revoked_at is null;

      -- one row per issued refresh token: the family of a session (RFC 9700 §4.14 rotation and reuse detection)
      create table merchant.refresh_tokens (
        id uuid primary key,
        session_id uuid not null references merchant.user_sessions (id),
        token_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index refresh_tokens_session_idx on merchant.refresh_tokens (session_id);

      -- the single-use link of a login_alert push that revokes that login
      create table merchant.login_cancellations (
        id uuid primary key,
        session_id uuid not null references merchant.user_sessions (id),
        token_hash text not null unique,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );

      create table merchant.account_settings (
        user_id uuid primary key references merchant.users (id),
        notification_push_enabled boolean not null,
        notification_transactions_enabled boolean not null,
        notification_promotions_enabled boolean not null,
        notification_daily_summary_enabled boolean not null,
        app_language text not null check (app_language in ('id', 'en')),
        privacy_analytics_enabled boolean not null,
        privacy_data_sharing_enabled boolean not null,
        updated_at timestamptz not null
      );

      -- audit of external-phone-verify (flow_mode, fallback_reason and hint_phone are kept for audit only)
      create table merchant.external_verifications (
        id uuid primary key,
        user_id uuid not null references merchant.users (id),
        session_id uuid not null references merchant.user_sessions (id),
        phone text not null,
        issuer text not null,
        subject text,
        request_id text,
        flow_mode text check (flow_mode in ('registration', 'login_primary', 'login_fallback')),
        fallback_reason text check (fallback_reason in ('messaging_unavailable', 'email_unavailable', 'user_switched')),
        hint_phone text,
        platform_code text not null,
        device_hash text,
        created_at timestamptz not null
      );
      create index external_verifications_user_idx on merchant.external_verifications (user_id, created_at desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table merchant.external_verifications, merchant.account_settings, merchant.login_cancellations,
      merchant.refresh_tokens, merchant.user_sessions, merchant.trusted_devices, merchant.otp_challenges;`);
  }
}
