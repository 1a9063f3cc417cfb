import { describe, expect, it } from 'vitest';
import { formatRupees } from './format';

describe('formatRupees', () => {
  it('writes whole rupees with the rupee sign and Indian grouping', () => {
    expect(formatRupees(12499)).toBe('₹12,499');
    expect(formatRupees(124999)).toBe('₹1,24,999');
    expect(formatRupees(0)).toBe('₹0');
  });

  it('shows paise only when there are some', () => {
    expect(formatRupees(99.5)).toBe('₹99.50');
  });
});
