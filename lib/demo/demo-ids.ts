/**
 * Fixed ids of the demo data, shared by each subgraph's demo seed (subgraphs do not import each other),
 * so that seeding is idempotent and the printed demo merchant is the same on every machine.
 */
export const DEMO = {
  merchantId: '019a0000-0000-7000-8000-00000000d001',
  merchantCode: 'MRC-DEMO0001',
  outlets: [
    { id: '019a0000-0000-7000-8000-00000000e001', code: 'PUSAT', name: 'Warung Kopi Demo – Pusat', nmid: 'ID1026112200001', isDefault: true },
    { id: '019a0000-0000-7000-8000-00000000e002', code: 'MENTENG', name: 'Warung Kopi Demo – Menteng', nmid: 'ID1026112200002', isDefault: false },
  ],
} as const;
