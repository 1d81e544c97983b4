/**
 * Fixed ids and keys of the demo data, shared by each subgraph's demo seed (subgraphs do not import each
 * other), so that seeding is idempotent and the printed demo credentials are the same on every machine.
 * Development only: `seed:demo` refuses to run with NODE_ENV=production.
 */
export const DEMO = {
  merchantId: '019a0000-0000-7000-8000-00000000d001',
  merchantCode: 'MRC-DEMO0001',
  outlets: [
    { id: '019a0000-0000-7000-8000-00000000e001', code: 'PUSAT', name: 'Warung Kopi Demo – Pusat', nmid: 'ID1026112200001', isDefault: true },
    { id: '019a0000-0000-7000-8000-00000000e002', code: 'MENTENG', name: 'Warung Kopi Demo – Menteng', nmid: 'ID1026112200002', isDefault: false },
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
} as const;
