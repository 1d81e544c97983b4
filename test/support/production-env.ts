/** The variables production requires (lib/config refuses the development defaults there), with test-only values. */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  INTERNAL_API_KEY: 'prod-internal-key-0123456789',
  PRINCIPAL_SECRET: 'prod-principal-secret-0123456789',
  SERVICE_TOKEN_SECRET: 'prod-service-secret-0123456789',
  DB_ROLE_PASSWORD: 'prod-role-password-0123',
  SECRETS_ENCRYPTION_KEY: 'prod-encryption-key-0123456789abcdef',
  PARTNER_TOKEN_SECRET: 'prod-partner-secret-0123456789abcdef',
  USER_TOKEN_SECRET: 'prod-user-secret-0123456789abcdef0000',
  MESSAGING_PROVIDER_URL: 'https://messaging.example.test/send',
  EMAIL_PROVIDER_URL: 'https://email.example.test/send',
} as const;
