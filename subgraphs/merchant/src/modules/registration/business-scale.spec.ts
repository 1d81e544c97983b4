import { BUSINESS_SCALES } from '../reference/data/business-scales.data';
import { deriveBusinessScale } from './business-scale';

describe('deriveBusinessScale (shipped PP 7/2021 bands)', () => {
  const scale = (revenue: number, employees: number) => deriveBusinessScale(BUSINESS_SCALES, revenue, employees).code;

  test.each([
    // revenue, employees, expected: both criteria agree
    [0, 1, 'micro'],
    [166_666_666, 4, 'micro'],
    [166_666_667, 5, 'small'],
    [1_250_000_000, 19, 'small'],
    [1_250_000_001, 20, 'medium'],
    [4_166_666_666, 99, 'medium'],
    [4_166_666_667, 100, 'large'],
  ])('revenue %d and %d employees → %s', (revenue, employees, expected) => {
    expect(scale(revenue, employees)).toBe(expected);
  });

  test('an owner without employees counts in the lowest employee band', () => {
    expect(scale(10_000_000, 0)).toBe('micro');
  });

  test.each([
    // when the criteria disagree, the larger scale wins
    [10_000_000, 25, 'medium'],
    [2_000_000_000, 2, 'medium'],
    [500_000_000, 150, 'large'],
    [9_000_000_000, 0, 'large'],
  ])('revenue %d and %d employees → the larger scale %s', (revenue, employees, expected) => {
    expect(scale(revenue, employees)).toBe(expected);
  });

  test('order of the rows does not matter', () => {
    expect(deriveBusinessScale([...BUSINESS_SCALES].reverse(), 200_000_000, 3).code).toBe('small');
  });
});
