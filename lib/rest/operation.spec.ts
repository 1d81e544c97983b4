import { withFragments } from './operation';

describe('operation documents with shared fragments', () => {
  it('appends each spread fragment once, with the fragments they spread in turn', () => {
    const document = withFragments('query A { merchant(id: "x") { ...PspMerchantFields outlets { ...PspOutletFields } } }');
    expect(document.match(/fragment PspMerchantFields on Merchant/g)).toHaveLength(1);
    expect(document.match(/fragment PspOutletFields on Outlet/g)).toHaveLength(1);
  });

  it('leaves a document without spreads unchanged and refuses an unknown fragment', () => {
    expect(withFragments('query B { provinces { id } }')).toBe('query B { provinces { id } }');
    expect(() => withFragments('query C { provinces { ...Nope } }')).toThrow('unknown fragment Nope');
  });
});
