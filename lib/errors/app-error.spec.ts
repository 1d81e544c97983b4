import { isConnectionFailure } from './app-error';

describe('isConnectionFailure', () => {
  it('knows a refused connect as node-postgres throws it, also wrapped by graphql-js as NonErrorThrown', () => {
    const refused = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' };
    expect(isConnectionFailure(refused)).toBe(true);
    expect(isConnectionFailure({ name: 'NonErrorThrown', thrownValue: refused })).toBe(true);
  });

  it('knows PostgreSQL’s shutdown and connection classes, not a request’s own error', () => {
    expect(isConnectionFailure(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionFailure({ thrownValue: 'a string' })).toBe(false);
    expect(isConnectionFailure(undefined)).toBe(false);
  });
});
