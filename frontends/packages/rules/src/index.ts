// The shop's rules for live validation in the browser. Every constant and message comes from
// ./generated (written from the Rust domain); this file only applies them. index.test.ts runs the
// Rust rules' own test vectors through these functions, so the two cannot drift apart.
import {
  ADDRESS_MOBILE_FIRST_DIGITS,
  ADMIN_CANCELLED,
  ADMIN_CANCELLED_LABEL,
  BRAND_SLUG_PATTERN,
  CONDITION_FALLBACK_LABEL,
  CONDITION_LABELS,
  FILTER_SEPARATOR,
  FILTER_VALUES,
  FUEL_LABELS,
  GST_STATES,
  MOBILE_LENGTH,
  NCR_PREFIXES,
  ORDER_STATUSES,
  ORDER_STATUS_FALLBACK_COLOUR,
  OTP_LENGTH,
  PASSWORD_MAX_CHARS,
  PASSWORD_MIN_CHARS,
  PASSWORD_SPECIALS,
  PINCODE_FIRST_DIGITS,
  PINCODE_LENGTH,
  TITLE_ELLIPSIS,
} from './generated';
import type { AddressFields, BadgeColour, FilterKind, SignUpFields } from './generated';
// The messages are a module of their own: a page that needs only the constants above does not carry them.
import { MESSAGES, type MessageCode } from './messages.generated';

export {
  ADDRESS_LIMIT,
  ADMIN_CANCELLED,
  BADGE_COLOURS,
  CART_MIN_QUANTITY,
  CONDITION_FALLBACK_LABEL,
  CONDITION_LABELS,
  DELIVERY_GST_LABEL,
  DIRECT_PURCHASE_QUANTITY,
  FILTER_SEPARATOR,
  FILTER_VALUES,
  FUEL_LABELS,
  GST_STATES,
  MOBILE_LENGTH,
  NCR_PREFIXES,
  ORDER_STATUSES,
  OTP_LENGTH,
  OTP_RESEND_AFTER_SECONDS,
  PASSWORD_MAX_CHARS,
  PASSWORD_MIN_CHARS,
  PASSWORD_SPECIALS,
  PINCODE_LENGTH,
  TITLE_ELLIPSIS,
  TITLE_LIMITS,
  WISHLIST_LIMIT,
} from './generated';
export type { AddressFields, BadgeColour, FilterKind, GstStateName, SignUpFields } from './generated';
export { MESSAGES, type MessageCode } from './messages.generated';

/** A rule's verdict shown to the user: the stable code and its text. */
export interface Issue {
  code: MessageCode;
  message: string;
}

export function issue(code: MessageCode): Issue {
  return { code, message: MESSAGES[code] };
}

// Rust's trim and is_whitespace use Unicode White_Space; JavaScript's trim differs at the edges
// (U+FEFF, U+0085), so the same property is used here.
const EDGE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;
const ANY_SPACE = /\p{White_Space}/u;

function trim(s: string): string {
  return s.replace(EDGE_SPACE, '');
}

function isAsciiDigit(c: string): boolean {
  return c.length === 1 && c >= '0' && c <= '9';
}

function isAsciiLetterOrDigit(c: string): boolean {
  return isAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/** Exactly `length` ASCII digits, the first one among `firstDigits`. */
function digitsStartingWith(s: string, length: number, firstDigits: string): boolean {
  const chars = Array.from(s);
  return chars.length === length && chars.every(isAsciiDigit) && firstDigits.includes(chars[0] ?? '');
}

// --- Accounts ---------------------------------------------------------------------------------

/** What the login/sign-up mobile field keeps: its ASCII digits, at most 10. */
export function sanitizeLoginMobile(typed: string): string {
  return Array.from(typed).filter(isAsciiDigit).slice(0, MOBILE_LENGTH).join('');
}

/** The field's value and its message: shown only once something is typed and it is still short. */
export function validateLoginMobile(typed: string): { value: string; issue: Issue | null } {
  const value = sanitizeLoginMobile(typed);
  const short = value.length > 0 && value.length < MOBILE_LENGTH;
  return { value, issue: short ? issue('mobile.too_short') : null };
}

export function validatePassword(password: string): Issue | null {
  const chars = Array.from(password);
  const isSpecial = (c: string) => PASSWORD_SPECIALS.includes(c);
  const ok =
    chars.length >= PASSWORD_MIN_CHARS &&
    chars.length <= PASSWORD_MAX_CHARS &&
    chars.every((c) => isAsciiLetterOrDigit(c) || isSpecial(c)) &&
    chars.some(isAsciiDigit) &&
    chars.some(isSpecial);
  return ok ? null : issue('password.rule');
}

export function validateConfirmation(password: string, confirmation: string): Issue | null {
  return password === confirmation ? null : issue('password.mismatch');
}

/** The sign-up button's rule. */
export function signUpAllowed(form: SignUpFields): boolean {
  return (
    validatePassword(form.password) === null &&
    validateConfirmation(form.password, form.confirmation) === null &&
    trim(form.name) !== '' &&
    trim(form.email) !== '' &&
    sanitizeLoginMobile(form.mobile).length === MOBILE_LENGTH &&
    form.password !== '' &&
    form.confirmation !== '' &&
    form.password === form.confirmation
  );
}

/** An email address as the shop stores it: trimmed and lower-cased. */
export function normaliseEmail(raw: string): string {
  return trim(raw).toLowerCase();
}

const EMAIL_MAX_BYTES = 254;
const EMAIL_LOCAL_MAX_BYTES = 64;
const DOMAIN_LABEL = /^[\p{Alphabetic}\p{N}-]+$/u;
const CONTROL = /\p{Cc}/u;

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** A plausible address: one @, a non-empty local part, a dotted domain, no spaces. */
export function validateEmail(raw: string): Issue | null {
  const email = normaliseEmail(raw);
  const invalid = issue('email.invalid');
  if (utf8Length(email) > EMAIL_MAX_BYTES || ANY_SPACE.test(email) || CONTROL.test(email)) return invalid;
  const at = email.indexOf('@');
  if (at < 0) return invalid;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local === '' || utf8Length(local) > EMAIL_LOCAL_MAX_BYTES || domain.includes('@')) return invalid;
  const labels = domain.split('.');
  const labelOk = (l: string) => l !== '' && !l.startsWith('-') && !l.endsWith('-') && DOMAIN_LABEL.test(l);
  return labels.length >= 2 && labels.every(labelOk) ? null : invalid;
}

export function validateOtp(raw: string): Issue | null {
  const code = trim(raw);
  if (code === '') return issue('otp.required');
  const chars = Array.from(code);
  return chars.length === OTP_LENGTH && chars.every(isAsciiDigit) ? null : issue('otp.invalid');
}

// --- Addresses --------------------------------------------------------------------------------

export function validatePincode(raw: string): Issue | null {
  return digitsStartingWith(trim(raw), PINCODE_LENGTH, PINCODE_FIRST_DIGITS) ? null : issue('pincode.invalid');
}

export function validateAddressMobile(raw: string): Issue | null {
  return digitsStartingWith(trim(raw), MOBILE_LENGTH, ADDRESS_MOBILE_FIRST_DIGITS)
    ? null
    : issue('address.mobile_invalid');
}

/** The state or union territory of this name in any case and surrounding spaces, as GST_STATES names it. */
export function findGstState(name: string): (typeof GST_STATES)[number] | undefined {
  const wanted = asciiLowerCase(trim(name));
  return GST_STATES.find((s) => asciiLowerCase(s.name) === wanted);
}

/** Required, then one of GST_STATES. */
export function validateState(raw: string): Issue | null {
  if (trim(raw) === '') return issue('address.state_required');
  return findGstState(raw) ? null : issue('address.state_invalid');
}

const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
// State code (01-38, 97, 99), PAN (5 letters, 4 digits, 1 letter), registration (1-9 or A-Z), Z, check.
const GSTIN_SHAPE = /^(0[1-9]|[12][0-9]|3[0-8]|97|99)[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** GSTN's mod-36 check character of the first 14 characters: weights alternate 1 and 2. */
function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  Array.from(first14).forEach((c, i) => {
    const product = GSTIN_ALPHABET.indexOf(c) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  });
  return GSTIN_ALPHABET[(36 - (sum % 36)) % 36] ?? '';
}

/** A GSTIN as the shop stores it: without spaces, letters upper-cased. */
export function normaliseGstin(raw: string): string {
  return raw.replace(new RegExp(ANY_SPACE.source, 'gu'), '').replace(/[a-z]/g, (c) => c.toUpperCase());
}

/** 15 characters in GSTIN's format with the right check character. */
export function validateGstin(raw: string): Issue | null {
  const gstin = normaliseGstin(raw);
  const ok = GSTIN_SHAPE.test(gstin) && gstinCheckCharacter(gstin.slice(0, 14)) === gstin[14];
  return ok ? null : issue('address.gstin_invalid');
}

/** Every failing address field with its message; street, landmark and gstin are optional. */
export function validateAddress(fields: AddressFields): Partial<Record<keyof AddressFields, Issue>> {
  const required = (value: string, code: MessageCode) => (trim(value) === '' ? issue(code) : null);
  const checks: [keyof AddressFields, Issue | null][] = [
    ['houseNo', required(fields.houseNo, 'address.house_no_required')],
    ['city', required(fields.city, 'address.city_required')],
    ['state', validateState(fields.state)],
    ['mobileNo', validateAddressMobile(fields.mobileNo)],
    ['pincode', validatePincode(fields.pincode)],
    ['gstin', trim(fields.gstin) === '' ? null : validateGstin(fields.gstin)],
  ];
  const errors: Partial<Record<keyof AddressFields, Issue>> = {};
  for (const [field, problem] of checks) {
    if (problem) errors[field] = problem;
  }
  return errors;
}

export type DeliveryRegion = 'ncr' | 'outside_ncr';

/** NCR when the pincode's first three digits are one of NCR_PREFIXES. */
export function isNcr(pincode: string): boolean {
  const pin = trim(pincode);
  return NCR_PREFIXES.some((prefix) => pin.startsWith(prefix));
}

export function deliveryRegion(pincode: string): DeliveryRegion {
  return isNcr(pincode) ? 'ncr' : 'outside_ncr';
}

// --- Pricing (amounts in paise) ---------------------------------------------------------------

export interface PricedLine {
  unitPrice: number;
  quantity: number;
  insideNcr: number;
  outsideNcr: number;
}

export interface Offer {
  offerExp: number;
  percentage: number;
}

export interface Totals {
  items: number;
  discount: number;
  delivery: number;
  total: number;
}

/** Whole rupees of items × percentage / 100, in paise; no discount unless offerExp > 0. */
export function discountPaise(itemsPaise: number, offer: Offer): number {
  const percent = offer.offerExp > 0 ? offer.percentage : 0;
  return Math.floor((Math.max(itemsPaise, 0) * percent) / 10_000) * 100;
}

/** The review page's amounts; delivery is charged once per line, whatever the quantity. */
export function computeTotals(lines: readonly PricedLine[], region: DeliveryRegion, offer: Offer): Totals {
  const items = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const delivery = lines.reduce((sum, l) => sum + (region === 'ncr' ? l.insideNcr : l.outsideNcr), 0);
  const discount = discountPaise(items, offer);
  return { items, discount, delivery, total: items - discount + delivery };
}

// --- Catalog ----------------------------------------------------------------------------------

/** The label of a `producttype`; anything unknown is 'Stock Lot'. */
/** The label of a `fuelType` code (`diesel` → Diesel); an unknown code is shown as it is. */
export function fuelLabel(fuelType: string): string {
  return Object.hasOwn(FUEL_LABELS, fuelType) ? FUEL_LABELS[fuelType as keyof typeof FUEL_LABELS] : fuelType;
}

export function conditionLabel(producttype: string): string {
  return Object.hasOwn(CONDITION_LABELS, producttype)
    ? CONDITION_LABELS[producttype as keyof typeof CONDITION_LABELS]
    : CONDITION_FALLBACK_LABEL;
}

/**
 * A title of at most `max` characters (code points, not UTF-16 units) is unchanged; a longer one
 * becomes its first `max` characters followed by '...'.
 */
export function truncateTitle(title: string, max: number): string {
  const chars = Array.from(title);
  return chars.length <= max ? title : `${chars.slice(0, max).join('')}${TITLE_ELLIPSIS}`;
}

const BRAND_SLUG = new RegExp(BRAND_SLUG_PATTERN);

function offers(kind: FilterKind, value: string): boolean {
  if (kind === 'oem') return BRAND_SLUG.test(value);
  return (FILTER_VALUES[kind] as readonly string[]).includes(value);
}

function asciiLowerCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export type FilterParse =
  | { values: string[]; issue: null }
  | { values: null; issue: Issue; value: string };

/**
 * Reads a filter's query value (`old--new`). Blank is no filter; case is ignored and repeats count
 * once; an unknown or empty value is refused.
 */
export function parseFilter(kind: FilterKind, raw: string): FilterParse {
  const values = filterValues(kind, raw);
  if (values) return { values, issue: null };
  const refused = trim(raw)
    .split(FILTER_SEPARATOR)
    .find((part) => !offers(kind, asciiLowerCase(part)));
  return { values: null, issue: issue('filter.invalid'), value: refused ?? raw };
}

/**
 * The values of a filter's query value as `parseFilter` reads them, or null when one is refused. Without the
 * refusal's message, so a page that only reads its address does not carry the table of messages.
 */
export function filterValues(kind: FilterKind, raw: string): string[] | null {
  const text = trim(raw);
  if (text === '') return [];
  const values: string[] = [];
  for (const part of text.split(FILTER_SEPARATOR)) {
    const value = asciiLowerCase(part);
    if (!offers(kind, value)) return null;
    if (!values.includes(value)) values.push(value);
  }
  return values;
}

/** The query value of chosen filter values: each once, joined by '--'. */
export function printFilter(values: readonly string[]): string {
  return [...new Set(values)].join(FILTER_SEPARATOR);
}

// --- Orders -----------------------------------------------------------------------------------

/** The purchase history's status badge: the number picks the colour, the string is the label. */
export function orderStatusBadge(status: number, statusString: string): { colour: BadgeColour; label: string } {
  const colour = ORDER_STATUSES.find((s) => s.number === status)?.colour ?? ORDER_STATUS_FALLBACK_COLOUR;
  return { colour, label: statusString === ADMIN_CANCELLED ? ADMIN_CANCELLED_LABEL : statusString };
}
