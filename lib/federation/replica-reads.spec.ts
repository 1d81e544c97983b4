import { readFileSync } from 'node:fs';
import type { Principal } from '../auth/principal';
import { mayReadReplica } from './replica-reads';

const partner: Principal = { kind: 'partner', partnerId: 'p', credentialId: 'c', scopes: [], contract: 'A' };
const operator: Principal = { kind: 'operator', operatorId: 'o', roles: ['support'] };
const bank: Principal = { kind: 'bank', bankId: 'b', bankCode: 'BDEMO', tier: 1 };
const user: Principal = { kind: 'user', userId: 'u', merchantId: 'm', role: 'owner' };

/** A subgraph fetch as the gateway names it: `<ClientOperationName>__<subgraph>__<n>`. */
const fetchOf = (operation: string, subgraph = 'transaction', query = `query ${operation}__${subgraph}__1{_entities{__typename}}`) => ({
  query,
  operationName: `${operation}__${subgraph}__1`,
});
const operationName = (file: string) =>
  /^(?:query|mutation) (\w+)/.exec(readFileSync(`rest-adapters/${file}/operation.graphql`, 'utf8'))![1];

describe('which subgraph requests may read the replica (replica-reads.ts)', () => {
  it('the transaction subgraph’s part of the partner transaction pages, by the client operation before `__`', () => {
    for (const route of ['merchants/transactions', 'outlets/transactions'])
      expect(mayReadReplica(fetchOf(operationName(`partner/routes/${route}`)), partner)).toBe(true);
    // The scoring summary's reads fill the daily rollups they lack: a write.
    expect(mayReadReplica(fetchOf(operationName('partner/routes/merchants/scoring-summary')), partner)).toBe(false);
  });

  it('never their merchant subgraph part (the partner’s scope), nor the partner lists that only it answers', () => {
    for (const route of [
      'merchants/scoring-summary',
      'merchants/transactions',
      'outlets/transactions',
      'referral-merchants/list',
      'outlets/list',
    ])
      expect(mayReadReplica(fetchOf(operationName(`partner/routes/${route}`), 'merchant'), partner)).toBe(false);
  });

  it('never the partner token exchange, the bank API, POS sync or the app', () => {
    const primaryOnly = [
      'partner/routes/auth/token',
      'psp/routes/merchants/by-nmid',
      'psp/routes/merchants/list',
      'psp/routes/merchants/search',
      'psp/routes/merchants/detail',
      'psp/routes/events/record',
      'psp/routes/settlements/record',
      'core/routes/poslite/sync/pull',
      'core/routes/poslite/sync/push',
      'core/routes/merchant/transactions',
      'core/routes/auth/profile',
    ];
    for (const file of primaryOnly) {
      const name = operationName(file);
      for (const principal of [partner, bank, user]) expect(mayReadReplica(fetchOf(name), principal)).toBe(false);
    }
  });

  it('never a mutation, even of a listed name or an operator', () => {
    const mutation = 'mutation PartnerMerchantTransactions__transaction__1{x{id}}';
    expect(mayReadReplica(fetchOf('PartnerMerchantTransactions', 'transaction', mutation), partner)).toBe(false);
    expect(mayReadReplica({ query: '  mutation M__merchant__0{x}', operationName: 'M__merchant__0' }, operator)).toBe(false);
  });

  it('an operator’s queries of the merchant subgraph; not of the transaction subgraph, whose scoring reads write', () => {
    const named = (subgraph: string) => ({
      query: `query OperatorMerchants__${subgraph}__0{merchants{id}}`,
      operationName: `OperatorMerchants__${subgraph}__0`,
    });
    expect(mayReadReplica(named('merchant'), operator)).toBe(true);
    expect(mayReadReplica(named('transaction'), operator)).toBe(false);
    expect(mayReadReplica({ query: '{merchants{id}}' }, operator)).toBe(false);
  });

  it('nothing without a query text (a persisted query hash alone, no body)', () => {
    expect(mayReadReplica(undefined, operator)).toBe(false);
    expect(mayReadReplica({ operationName: 'PartnerMerchantTransactions__transaction__1' }, partner)).toBe(false);
    expect(
      mayReadReplica(
        { query: 'query PartnerMerchantTransactions{x}', operationName: 'PartnerMerchantTransactionsX__transaction__1' },
        partner,
      ),
    ).toBe(false);
  });
});
