/**
 * Fixed ids and keys of the demo data, shared by each subgraph's demo seed (subgraphs do not import each
 * other), so that seeding is idempotent and the printed demo credentials are the same on every machine.
 * Development only: `seed:demo` refuses to run with NODE_ENV=production.
 */
export const DEMO = {
  merchantId: '019a0000-0000-7000-8000-00000000d001',
  merchantCode: 'MRC-DEMO0001',
  /** The demo merchant's owner, an app user: log in with request-otp, read the code with `npm run ops -- dev:outbox`. */
  owner: {
    userId: '019a0000-0000-7000-8000-00000000a001',
    membershipId: '019a0000-0000-7000-8000-00000000a101',
    phone: '+6281200000001',
    fullName: 'Pemilik Demo',
  },
  outlets: [
    {
      id: '019a0000-0000-7000-8000-00000000e001',
      code: 'PUSAT',
      name: 'Warung Kopi Demo – Pusat',
      nmid: 'ID1026112200001',
      isDefault: true,
    },
    {
      id: '019a0000-0000-7000-8000-00000000e002',
      code: 'MENTENG',
      name: 'Warung Kopi Demo – Menteng',
      nmid: 'ID1026112200002',
      isDefault: false,
    },
  ],
  /** More merchants of the demo bank: a single-counter warung and a minimarket with three branches. */
  otherMerchants: [
    {
      id: '019a0000-0000-7000-8000-00000000d002',
      code: 'MRC-DEMO0002',
      name: 'Warung Makan Bu Sari',
      categoryCode: '5812',
      categoryName: 'Warung Makan',
      phone: '+6281234567891',
      outlets: [
        {
          id: '019a0000-0000-7000-8000-00000000e003',
          code: 'PUSAT',
          name: 'Warung Makan Bu Sari',
          nmid: 'ID1026112200003',
          tid: 'TDEMO0003',
        },
      ],
    },
    {
      id: '019a0000-0000-7000-8000-00000000d003',
      code: 'MRC-DEMO0003',
      name: 'Minimarket Sejahtera',
      categoryCode: '5411',
      categoryName: 'Minimarket',
      phone: '+6281234567892',
      /** Referred by the demo partner too: a multi-outlet merchant for the partner outlet endpoints. */
      referralCode: 'DEMOREF',
      outlets: [
        {
          id: '019a0000-0000-7000-8000-00000000e004',
          code: 'PUSAT',
          name: 'Minimarket Sejahtera – Gambir',
          nmid: 'ID1026112200004',
          tid: 'TDEMO0004',
        },
        {
          id: '019a0000-0000-7000-8000-00000000e005',
          code: 'CIDENG',
          name: 'Minimarket Sejahtera – Cideng',
          nmid: 'ID1026112200005',
          tid: 'TDEMO0005',
        },
        {
          id: '019a0000-0000-7000-8000-00000000e006',
          code: 'PETOJO',
          name: 'Minimarket Sejahtera – Petojo',
          nmid: 'ID1026112200006',
          tid: 'TDEMO0006',
        },
      ],
    },
  ],
  bank: {
    id: '019a0000-0000-7000-8000-00000000b001',
    code: 'BDEMO',
    name: 'Bank Demo',
    lookupKeyId: 'lk_demo',
    lookupSecret: 'demo-lookup-secret-0123456789abcdef',
    eventKeyId: 'ek_demo',
    eventSecret: 'demo-event-secret-0123456789abcdef0',
  },
  /** The demo partner: referred the demo merchant (referral code DEMOREF); one JWT credential per contract. */
  partner: {
    id: '019a0000-0000-7000-8000-00000000f001',
    code: 'PDEMO',
    name: 'Partner Demo',
    referralCode: 'DEMOREF',
    credentials: {
      contractA: {
        id: '019a0000-0000-7000-8000-00000000f101',
        name: 'Demo contract A',
        credentialKey: 'pk_demo_a',
        secret: 'demo-partner-secret-a-0123456789abcdef',
        contract: 'A',
        scopes: ['merchant.read', 'transaction.read', 'scoring.read'],
      },
      contractB: {
        id: '019a0000-0000-7000-8000-00000000f102',
        name: 'Demo contract B',
        credentialKey: 'pk_demo_b',
        secret: 'demo-partner-secret-b-0123456789abcdef',
        contract: 'B',
        scopes: ['merchant.read', 'transaction.read', 'risk-summary.read'],
      },
    },
  },
  /**
   * The demo sandbox (docs/decisions/0015-demo-data-and-sandbox.md): a sandbox bank with fixed keys, its sandbox merchant with two
   * outlets (sandbox NMIDs) and an owner to log in to the app with, and a sandbox partner that referred it. Nothing
   * of it appears in the live demo data's lists, and its keys reach nothing live.
   */
  sandbox: {
    bank: {
      id: '019a0000-0000-7000-8000-00000000b901',
      code: 'BSANDBOX',
      name: 'Bank Sandbox',
      lookupKeyId: 'lk_sandbox',
      lookupSecret: 'sandbox-lookup-secret-0123456789abcd',
      eventKeyId: 'ek_sandbox',
      eventSecret: 'sandbox-event-secret-0123456789abcde',
    },
    merchantId: '019a0000-0000-7000-8000-00000000d901',
    merchantCode: 'MRC-SANDBOX01',
    merchantName: 'Toko Sandbox',
    owner: {
      userId: '019a0000-0000-7000-8000-00000000a901',
      membershipId: '019a0000-0000-7000-8000-00000000a991',
      phone: '+6281200000099',
      fullName: 'Pemilik Sandbox',
    },
    outlets: [
      {
        id: '019a0000-0000-7000-8000-00000000e901',
        code: 'PUSAT',
        name: 'Toko Sandbox – Pusat',
        nmid: 'ID990000000000001',
        tid: 'TSBX0001',
        terminalId: '019a0000-0000-7000-8000-0000000a0901',
        isDefault: true,
      },
      {
        id: '019a0000-0000-7000-8000-00000000e902',
        code: 'CABANG',
        name: 'Toko Sandbox – Cabang',
        nmid: 'ID990000000000002',
        tid: 'TSBX0002',
        terminalId: '019a0000-0000-7000-8000-0000000a0902',
        isDefault: false,
      },
    ],
    partner: {
      id: '019a0000-0000-7000-8000-00000000f901',
      code: 'PSANDBOX',
      name: 'Partner Sandbox',
      referralCode: 'SANDBOXREF',
      credential: {
        id: '019a0000-0000-7000-8000-00000000f911',
        name: 'Sandbox contract A',
        credentialKey: 'pk_sandbox',
        secret: 'sandbox-partner-secret-0123456789abcd',
        contract: 'A',
        scopes: ['merchant.read', 'transaction.read', 'scoring.read'],
      },
    },
  },
} as const;
