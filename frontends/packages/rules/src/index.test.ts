// The drift check: every vector the Rust rules computed (./generated) must come out the same here.
import { describe, expect, it } from 'vitest';
import { VECTORS } from './generated';
import { MESSAGES } from './messages.generated';
import {
  computeTotals,
  conditionLabel,
  fuelLabel,
  deliveryRegion,
  findGstState,
  GST_STATES,
  isNcr,
  normaliseEmail,
  orderStatusBadge,
  parseFilter,
  filterValues,
  printFilter,
  signUpAllowed,
  TITLE_LIMITS,
  truncateTitle,
  validateAddress,
  validateAddressMobile,
  validateConfirmation,
  validateEmail,
  validateGstin,
  validateLoginMobile,
  validateOtp,
  validatePassword,
  validatePincode,
} from './index';

const show = (s: string) => JSON.stringify(s);

describe('accounts', () => {
  it.each(VECTORS.loginMobile)('login mobile $input', ({ input, value, code }) => {
    const got = validateLoginMobile(input);
    expect(got.value).toBe(value);
    expect(got.issue?.code ?? null).toBe(code);
    if (code) expect(got.issue?.message).toBe(MESSAGES[code]);
  });

  it.each(VECTORS.password.map((v) => [show(v.input), v] as const))('password %s', (_, { input, code }) => {
    expect(validatePassword(input)?.code ?? null).toBe(code);
  });

  it.each(VECTORS.confirmation)('confirmation $password / $confirmation', ({ password, confirmation, code }) => {
    expect(validateConfirmation(password, confirmation)?.code ?? null).toBe(code);
  });

  it.each(VECTORS.signUp.map((v) => [JSON.stringify(v.form), v] as const))('sign-up %s', (_, { form, allowed }) => {
    expect(signUpAllowed(form)).toBe(allowed);
  });

  it.each(VECTORS.otp.map((v) => [show(v.input), v] as const))('OTP %s', (_, { input, code }) => {
    expect(validateOtp(input)?.code ?? null).toBe(code);
  });

  it.each(VECTORS.email)('email $input', ({ input, value, code }) => {
    expect(validateEmail(input)?.code ?? null).toBe(code);
    if (value !== null) expect(normaliseEmail(input)).toBe(value);
  });
});

describe('addresses', () => {
  it.each(VECTORS.pincode.map((v) => [show(v.input), v] as const))('pincode %s', (_, { input, code }) => {
    expect(validatePincode(input)?.code ?? null).toBe(code);
  });

  it.each(VECTORS.addressMobile)('address mobile $input', ({ input, code }) => {
    expect(validateAddressMobile(input)?.code ?? null).toBe(code);
  });

  it.each(VECTORS.gstin.map((v) => [show(v.input), v] as const))('GSTIN %s', (_, { input, code }) => {
    expect(validateGstin(input)?.code ?? null).toBe(code);
  });

  it('lists the 36 states and union territories and finds them in any case', () => {
    expect(GST_STATES).toHaveLength(36);
    expect(findGstState(' delhi ')).toEqual({ code: '07', name: 'Delhi' });
    expect(findGstState('Atlantis')).toBeUndefined();
  });

  it.each(VECTORS.address.map((v) => [JSON.stringify(v.input), v] as const))('address %s', (_, { input, errors }) => {
    const got = Object.fromEntries(Object.entries(validateAddress(input)).map(([field, i]) => [field, i.code]));
    expect(got).toEqual(errors);
  });

  it.each(VECTORS.ncr)('NCR $pincode', ({ pincode, ncr }) => {
    expect(isNcr(pincode)).toBe(ncr);
  });
});

describe('pricing', () => {
  it.each(VECTORS.totals.map((v, i) => [i, v] as const))('totals #%i', (_, v) => {
    const got = computeTotals(v.lines, deliveryRegion(v.pincode), { offerExp: v.offerExp, percentage: v.percentage });
    expect(got).toEqual({ items: v.items, discount: v.discount, delivery: v.delivery, total: v.total });
  });
});

describe('catalog', () => {
  it.each(VECTORS.truncate.map((v) => [show(v.title), v.max, v] as const))('truncate %s at %i', (_, __, v) => {
    expect(truncateTitle(v.title, v.max)).toBe(v.result);
  });

  it('labels fuel types from the generated table and shows unknown codes as they are', () => {
    expect(fuelLabel('petrol')).toBe('Petrol');
    expect(fuelLabel('diesel')).toBe('Diesel');
    expect(fuelLabel('hybrid')).toBe('Hybrid');
    expect(fuelLabel('')).toBe('');
    expect(fuelLabel('lpg')).toBe('lpg');
  });

  it.each(VECTORS.conditionLabel)('condition label $producttype', ({ producttype, label }) => {
    expect(conditionLabel(producttype)).toBe(label);
  });

  it.each(VECTORS.filterParse)('parse $kind filter $raw', ({ kind, raw, values, code }) => {
    const got = parseFilter(kind, raw);
    expect(got.values).toEqual(values);
    expect(filterValues(kind, raw)).toEqual(values);
    expect(got.issue?.code ?? null).toBe(code);
  });

  it.each(VECTORS.filterPrint)('print $kind filter $values', ({ kind, values, printed }) => {
    expect(printFilter(values)).toBe(printed);
    expect(parseFilter(kind, printed).values).toEqual([...new Set(values)]);
  });

  it('keeps the title limits the frontends use', () => {
    expect(TITLE_LIMITS).toEqual({ homeCard: 50, hotSelling: 45, listingCard: 70, wishlist: 45, orderLine: 40 });
  });
});

describe('orders', () => {
  it.each(VECTORS.orderStatus)('badge $status $statusString', ({ status, statusString, colour, label }) => {
    expect(orderStatusBadge(status, statusString)).toEqual({ colour, label });
  });
});
