import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, DEV_SECRETS, SECRET_VARIABLES, loadConfig, secretFileVariable } from './config';

const PROVIDERS = {
  MESSAGING_PROVIDER_URL: 'https://graph.example/v1/messages',
  EMAIL_PROVIDER_URL: 'https://mail.example/send',
};

describe('loadConfig', () => {
  it('applies development defaults and coerces numbers', () => {
    const config = loadConfig({ REST_PORT: '9090' });
    expect(config.ports).toEqual({
      rest: 9090,
      gateway: 4000,
      merchant: 4001,
      outlet: 4002,
      transaction: 4003,
      catalog: 4004,
      metrics: 9464,
    });
    expect(config.gatewayUrl).toBe('http://127.0.0.1:4000/graphql');
    expect(loadConfig({ OUTLET_PORT: '24002' }).subgraphUrls.outlet).toBe('http://127.0.0.1:24002/graphql');
    expect(config.database.adminUrl).toBeUndefined();
    expect(config.secrets.internalApiKey).toBe(DEV_SECRETS.INTERNAL_API_KEY);
    expect(Object.isFrozen(config)).toBe(true);
    expect(config.http.trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY_HOPS: '1' }).http.trustProxyHops).toBe(1);
  });

  it('fails with the list of every problem', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ REST_PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', INTERNAL_API_KEY: 'short' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = error!.problems.join('\n');
    for (const key of ['REST_PORT', 'LOG_LEVEL', 'DATABASE_URL', 'INTERNAL_API_KEY']) expect(problems).toContain(key);
  });

  it('accepts <NAME>_PREVIOUS values after the current one, and refuses short or repeated ones', () => {
    const config = loadConfig({
      USER_TOKEN_SECRET_PREVIOUS: ' old-user-token-secret-0123456789abcdef , next-user-token-secret-0123456789abcdef',
    });
    expect(config.secrets.accepted.userTokenSecret).toEqual([
      config.secrets.userTokenSecret,
      'old-user-token-secret-0123456789abcdef',
      'next-user-token-secret-0123456789abcdef',
    ]);
    expect(config.secrets.accepted.principalSecret).toEqual([config.secrets.principalSecret]);
    expect(() =>
      loadConfig({
        SECRETS_ENCRYPTION_KEY_PREVIOUS: 'too-short',
        PRINCIPAL_SECRET: 'p'.repeat(20),
        PRINCIPAL_SECRET_PREVIOUS: 'p'.repeat(20),
      }),
    ).toThrow(
      /PRINCIPAL_SECRET_PREVIOUS: must not repeat PRINCIPAL_SECRET[\s\S]*SECRETS_ENCRYPTION_KEY_PREVIOUS: each value must have at least 32 characters/,
    );
  });

  it('refuses the development secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/INTERNAL_API_KEY: must be set in production/);
    const secrets = Object.fromEntries(Object.keys(DEV_SECRETS).map((key) => [key, `${key.toLowerCase()}-production-value`]));
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, ...PROVIDERS }).isProduction).toBe(true);
  });

  it('allows loopback to outbound URLs outside production only, unless OUTBOUND_ALLOW_CIDRS says otherwise', () => {
    const secrets = Object.fromEntries(Object.keys(DEV_SECRETS).map((key) => [key, `${key.toLowerCase()}-production-value`]));
    expect(loadConfig({}).outboundUrls).toEqual({ requireHttps: false, allowCidrs: ['127.0.0.0/8', '::1/128'] });
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, ...PROVIDERS }).outboundUrls).toEqual({ requireHttps: true, allowCidrs: [] });
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: 'none' }).outboundUrls.allowCidrs).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.8.0.0/16, fd12::/64' }).outboundUrls.allowCidrs).toEqual(['10.8.0.0/16', 'fd12::/64']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.8.0.0/33,localhost,::1' })).toThrow(
      /OUTBOUND_ALLOW_CIDRS: 10\.8\.0\.0\/33 is not[^]*OUTBOUND_ALLOW_CIDRS: localhost is not[^]*OUTBOUND_ALLOW_CIDRS: ::1 is not/,
    );
  });

  it('refuses the log provider for one-time passwords in production', () => {
    const secrets = Object.fromEntries(Object.keys(DEV_SECRETS).map((key) => [key, `${key.toLowerCase()}-production-value`]));
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ NODE_ENV: 'production', ...secrets })).toEqual([
      expect.stringMatching(/^MESSAGING_PROVIDER_URL: must be set in production \(the log provider only records/),
      expect.stringMatching(/^EMAIL_PROVIDER_URL: must be set in production/),
    ]);
    expect(problems({ NODE_ENV: 'production', ...secrets, ...PROVIDERS, EMAIL_PROVIDER_URL: '' })).toEqual([
      expect.stringMatching(/^EMAIL_PROVIDER_URL: must be set in production/),
    ]);
    // Push stays optional; outside production the log provider is the default of every channel.
    const config = loadConfig({ NODE_ENV: 'production', ...secrets, ...PROVIDERS });
    expect(config.notifications.messaging.url).toBe(PROVIDERS.MESSAGING_PROVIDER_URL);
    expect(config.notifications.push.url).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'development' }).notifications.messaging.url).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test' }).notifications.email.url).toBeUndefined();
  });

  it('reads each secret from <NAME>_FILE when that is set (a mounted secret), one trailing newline dropped', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'config-secrets-'));
    try {
      const file = (name: string, text: string) => {
        const where = path.join(dir, name);
        writeFileSync(where, text);
        return where;
      };
      const config = loadConfig({
        INTERNAL_API_KEY_FILE: file('internal', 'internal-key-from-a-file-0000\n'),
        USER_TOKEN_SECRET_FILE: file('user', 'user-token-secret-from-a-file-0000000000'),
        DATABASE_URL_FILE: file('db', 'postgres://app:pa%24s@db.internal:5432/qris\n'),
        OPERATOR_TOKEN_SECRET_FILE: file('operator', 'operator-token-secret-from-a-file-000000\n\n'),
      });
      expect(config.secrets.internalApiKey).toBe('internal-key-from-a-file-0000');
      expect(config.secrets.userTokenSecret).toBe('user-token-secret-from-a-file-0000000000');
      expect(config.database.adminUrl).toBe('postgres://app:pa%24s@db.internal:5432/qris');
      // Only one newline is the file's end; a second is part of the value (and fails nothing here: 32+ characters).
      expect(config.operatorTokens.secret).toBe('operator-token-secret-from-a-file-000000\n');
      // The file's value is checked like the variable's.
      expect(() => loadConfig({ PRINCIPAL_SECRET_FILE: file('short', 'short\n') })).toThrow(/PRINCIPAL_SECRET: /);
      expect(() => loadConfig({ PRINCIPAL_SECRET_FILE: path.join(dir, 'missing') })).toThrow(
        /PRINCIPAL_SECRET_FILE: cannot read .*missing \(ENOENT\)/,
      );
      expect(() => loadConfig({ INTERNAL_API_KEY: 'an-internal-api-key-0000', INTERNAL_API_KEY_FILE: file('both', 'x') })).toThrow(
        /INTERNAL_API_KEY: set either INTERNAL_API_KEY or INTERNAL_API_KEY_FILE, not both/,
      );
      // Production's refusal of development values holds for values from files too.
      expect(() =>
        loadConfig({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY_FILE: file('dev', `${DEV_SECRETS.SECRETS_ENCRYPTION_KEY}\n`) }),
      ).toThrow(/SECRETS_ENCRYPTION_KEY: must be set in production/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts a file for every secret variable, and for nothing else', () => {
    for (const name of [...Object.keys(DEV_SECRETS), 'OPERATOR_TOKEN_SECRET', 'REDIS_URL', 'MESSAGING_WEBHOOK_SECRET'])
      expect(SECRET_VARIABLES).toContain(name);
    expect(SECRET_VARIABLES).not.toContain('REST_PORT');
    expect(secretFileVariable('REDIS_URL')).toBe('REDIS_URL_FILE');
    // REST_PORT_FILE is no variable of the config: it is ignored, the default stays.
    expect(loadConfig({ REST_PORT_FILE: '/nonexistent' }).ports.rest).toBe(8080);
  });

  it('reads the drain delay (0 unless set)', () => {
    expect(loadConfig({}).http.drainDelayMs).toBe(0);
    expect(loadConfig({ DRAIN_DELAY_MS: '15000' }).http.drainDelayMs).toBe(15000);
    expect(() => loadConfig({ DRAIN_DELAY_MS: '-1' })).toThrow(/DRAIN_DELAY_MS/);
  });

  it('reads the daily summary’s send time (HH:MM, Asia/Makassar) and catch-up window', () => {
    expect(loadConfig({}).dailySummary).toEqual({ sendAt: { hour: 21, minute: 0 }, catchUpMs: 180 * 60_000 });
    expect(loadConfig({ DAILY_SUMMARY_SEND_AT: '07:30', DAILY_SUMMARY_CATCH_UP_MINUTES: '60' }).dailySummary).toEqual({
      sendAt: { hour: 7, minute: 30 },
      catchUpMs: 3_600_000,
    });
    for (const wrong of ['24:00', '7:30', '21:60', '21.00'])
      expect(() => loadConfig({ DAILY_SUMMARY_SEND_AT: wrong })).toThrow(/DAILY_SUMMARY_SEND_AT/);
    expect(() => loadConfig({ DAILY_SUMMARY_CATCH_UP_MINUTES: '0' })).toThrow(/DAILY_SUMMARY_CATCH_UP_MINUTES/);
  });

  it('reads automatic suspension: run time (HH:MM, Asia/Makassar), inactivity months, warning days, KYC validity', () => {
    expect(loadConfig({}).suspension).toEqual({
      runAt: { hour: 9, minute: 0 },
      inactivityMonths: 6,
      warningDays: 14,
      kycValidityMonths: 24,
    });
    expect(
      loadConfig({
        SUSPENSION_RUN_AT: '06:15',
        SUSPENSION_INACTIVITY_MONTHS: '12',
        SUSPENSION_WARNING_DAYS: '0',
        KYC_VALIDITY_MONTHS: '12',
      }).suspension,
    ).toEqual({ runAt: { hour: 6, minute: 15 }, inactivityMonths: 12, warningDays: 0, kycValidityMonths: 12 });
    expect(() => loadConfig({ SUSPENSION_RUN_AT: '9:00' })).toThrow(/SUSPENSION_RUN_AT/);
    for (const wrong of ['0', '13'])
      expect(() => loadConfig({ SUSPENSION_INACTIVITY_MONTHS: wrong })).toThrow(/SUSPENSION_INACTIVITY_MONTHS/);
    expect(() => loadConfig({ SUSPENSION_WARNING_DAYS: '91' })).toThrow(/SUSPENSION_WARNING_DAYS/);
    expect(() => loadConfig({ KYC_VALIDITY_MONTHS: '0' })).toThrow(/KYC_VALIDITY_MONTHS/);
  });
});
