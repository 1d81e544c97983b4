import { Type } from '@sinclair/typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Nullable } from './schema-helpers';
import { countValues, detailsOf, failFastThenCollect, validationMessage } from './validation-details';

const ajv = (collecting: boolean) => {
  const instance = new Ajv({ allErrors: collecting, verbose: collecting, strict: false });
  addFormats(instance);
  return instance;
};

const Body = Type.Object({
  amount: Type.Integer({ minimum: 1 }),
  outlet_id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
  note: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
  size: Type.Optional(Nullable(Type.Union([Type.Literal('s'), Type.Literal('m')]))),
  lat: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  items: Type.Array(Type.Object({ qty: Type.Integer({ minimum: 1 }), 'a/b': Type.Optional(Type.Boolean()) })),
});

describe('validation details', () => {
  const validate = failFastThenCollect(ajv(false).compile(Body), () => ajv(true).compile(Body));

  it('lists every failing field by pointer and rule, folding unions of constants into one enum detail', () => {
    const body = { amount: -5, outlet_id: 'x', kind: 'c', note: 'long', size: 'xl', lat: 'north', items: [{ qty: 0, 'a/b': 1 }] };
    expect(validate(body)).toBe(false);
    const details = detailsOf('body', validate.errors ?? []);
    expect(details).toEqual([
      { pointer: '/amount', rule: 'minimum', message: 'must be >= 1' },
      { pointer: '/outlet_id', rule: 'format', message: 'must match format "uuid"' },
      { pointer: '/kind', rule: 'enum', message: 'must be one of: "a", "b"', allowed: ['a', 'b'] },
      { pointer: '/note', rule: 'maxLength', message: 'must NOT have more than 3 characters' },
      { pointer: '/size', rule: 'enum', message: 'must be one of: "s", "m", null', allowed: ['s', 'm', null] },
      { pointer: '/lat', rule: 'type', message: 'must be number or null' },
      { pointer: '/items/0/qty', rule: 'minimum', message: 'must be >= 1' },
      { pointer: '/items/0/a~1b', rule: 'type', message: 'must be boolean' },
    ]);
    expect(validationMessage('body', details[0])).toBe('invalid body (amount): must be >= 1');
    expect(validationMessage('body', details[7])).toBe('invalid body (items.0.a/b): must be boolean');
  });

  it('names missing fields at their own pointer, and query values under /query', () => {
    expect(validate({ items: [{}] })).toBe(false);
    const details = detailsOf('querystring', validate.errors ?? []);
    expect(details.map((d) => [d.pointer, d.rule])).toEqual([
      ['/query/amount', 'required'],
      ['/query/outlet_id', 'required'],
      ['/query/kind', 'required'],
      ['/query/items/0/qty', 'required'],
    ]);
    expect(validationMessage('querystring', details[0])).toBe("invalid querystring (amount): must have required property 'amount'");
  });

  it('passes valid input without collecting, and counts values with an early stop', () => {
    expect(validate({ amount: 1, outlet_id: '019a0000-0000-7000-8000-00000000d001', kind: 'a', items: [] })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(countValues({ a: [1, 2, { b: null }] }, 100)).toBe(6);
    expect(
      countValues(
        Array.from({ length: 1_000_000 }, () => 1),
        10,
      ),
    ).toBe(11);
  });
});
