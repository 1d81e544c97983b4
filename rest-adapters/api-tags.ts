import type { ApiTag } from '@lib/rest/route';

/**
 * Every tag of the REST reference, in the order it shows them: what the group is for and whose reference it is in
 * (`audience`: the per-audience references /docs/bank, /docs/partner, /docs/app, /docs/internal). A route names its
 * tag; one not defined here stops the app from starting (lib/rest/openapi.ts).
 */
export const API_TAGS = {
  psp: [
    {
      name: 'psp: lookups',
      audience: 'bank',
      description:
        'Find your merchants before you pay them: list, search, look up by NMID or id, and assign an NMID to an outlet. Signed with your lookup key.',
    },
    {
      name: 'psp: intake',
      audience: 'bank',
      description:
        'Tell us what happened: QRIS payment events as they occur and the daily settlement batch. Signed with your event key; a replay is answered, never stored twice.',
    },
    {
      name: 'psp: sandbox',
      audience: 'bank',
      description:
        'Sandbox credentials only: simulate payments and settlements to your sandbox merchants, advance your sandbox’s clock to see retries and expiries now, and reset it. Signed with your sandbox event key; a live key is refused (403 live_bank).',
    },
  ],
  partner: [
    {
      name: 'partner: auth',
      audience: 'partner',
      description: 'Exchange your credential for an access token (credentials in JWT mode; HMAC credentials sign every request instead).',
    },
    {
      name: 'partner: merchants',
      audience: 'partner',
      description: 'The merchants you referred or were granted, and a summary of them: the starting point of every other call.',
    },
    {
      name: 'partner: transactions',
      audience: 'partner',
      description: 'The QRIS transactions of a merchant in your scope, page by page.',
    },
    {
      name: 'partner: scoring',
      audience: 'partner',
      description:
        'Figures for credit and risk decisions about a merchant in your scope: monthly volume, ticket size, growth, settlement consistency and stability.',
    },
    {
      name: 'partner: outlets',
      audience: 'partner',
      description: 'The outlets of a merchant in your scope, their devices and each outlet’s transactions.',
    },
  ],
  core: [
    {
      name: 'core: auth',
      audience: 'app',
      description: 'Phone login with a one-time code, sessions and their refresh, the user’s profile, settings and push tokens.',
    },
    {
      name: 'core: merchant',
      audience: 'app',
      description: 'The merchant’s own business: registration, transactions, the payment terminal, live payments and feedback.',
    },
    {
      name: 'core: point of sale (app)',
      audience: 'app',
      description:
        'The point of sale in the app, with the user’s token: outlets, categories, products, offline sync, sales orders and dynamic QRIS payments.',
    },
    {
      name: 'core: reference data',
      audience: 'app',
      description: 'Public lists the app’s forms need: provinces down to postal codes, business types and scales. No credential.',
    },
    {
      name: 'core: public',
      audience: 'app',
      description: 'Published legal documents anyone may read, such as the terms of service. No credential.',
    },
    {
      name: 'core: point of sale (service)',
      audience: 'internal',
      description: 'The same point of sale for trusted services: the internal key plus `X-Merchant-ID` naming the merchant to act for.',
    },
    {
      name: 'core: internal',
      audience: 'internal',
      description:
        'Calls of our own services and operators: registration review and approval, merchant status, payment gateway statuses, notifications, sandbox payments.',
    },
    {
      name: 'core: webhooks',
      audience: 'internal',
      description: 'What the messaging provider calls: its subscription check and delivery statuses, signed with the webhook secret.',
    },
    {
      name: 'core: health',
      audience: 'internal',
      description: 'Whether the service and its dependencies answer, for monitoring. No credential.',
    },
  ],
} as const satisfies Record<string, readonly ApiTag[]>;
