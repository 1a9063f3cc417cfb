// Who runs the shop (name, legal name, GSTIN, contacts, grievance officer), as the server configures it.
// The server embeds it in every storefront page (`<script id="marque-shop" type="application/json">`) and
// serves the same JSON at GET /api/get/shop; the page reads the embedded copy once.
import { useSyncExternalStore } from 'react';
import firstLoads from '../../../../contract/first-loads.json';
import { embeddedJson } from './embedded';
import { SHOP_NAME } from './shop';

export type GrievanceOfficer = { name: string; email: string; phone: string };

/** A configured third-party sign-in: the provider and where its popup opens. */
export type SignInSettings = { provider: string; start: string };

export type ShopIdentity = {
  /** The shop's name as shoppers know it, e.g. 'Marque Parts'. */
  name: string;
  /** The registered business name of the operator. */
  legalName: string;
  /** The registered address. */
  address: string;
  gstin: string;
  state: string;
  stateCode: string;
  supportEmail: string;
  supportPhone: string;
  /** The number the announcement banner gives for parts that are not online yet. */
  enquiryPhone: string;
  /** Digits with the country code (for https://wa.me/…), or null when the shop has no chat. */
  chatNumber: string | null;
  grievanceOfficer: GrievanceOfficer;
  /** The third-party sign-in the login page offers, or null when the server has none configured (no button then). */
  signIn: SignInSettings | null;
};

/** The element's id, named in contract/first-loads.json as the server reads it. */
export const SHOP_IDENTITY_ELEMENT_ID = firstLoads.scripts.shop;
export const SHOP_IDENTITY_URL = '/api/get/shop';

/** What the page shows before (or without) the server's identity: the shop's name and no contact details. */
export const UNKNOWN_SHOP: ShopIdentity = {
  name: SHOP_NAME,
  legalName: '',
  address: '',
  gstin: '',
  state: '',
  stateCode: '',
  supportEmail: '',
  supportPhone: '',
  enquiryPhone: '',
  chatNumber: null,
  grievanceOfficer: { name: '', email: '', phone: '' },
  signIn: null,
};

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The identity in a JSON value, or null when it is not one. Missing text fields become ''. */
export function parseShopIdentity(value: unknown): ShopIdentity | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (!text(v.name)) return null;
  const officer = (typeof v.grievanceOfficer === 'object' && v.grievanceOfficer !== null ? v.grievanceOfficer : {}) as Record<
    string,
    unknown
  >;
  const chat = text(v.chatNumber).replace(/\D/g, '');
  const signIn = (typeof v.signIn === 'object' && v.signIn !== null ? v.signIn : null) as Record<string, unknown> | null;
  // Only a start on this origin (a path): the popup never opens another site's page.
  const start = signIn ? text(signIn.start) : '';
  return {
    name: text(v.name),
    legalName: text(v.legalName),
    address: text(v.address),
    gstin: text(v.gstin),
    state: text(v.state),
    stateCode: text(v.stateCode),
    supportEmail: text(v.supportEmail),
    supportPhone: text(v.supportPhone),
    enquiryPhone: text(v.enquiryPhone),
    chatNumber: chat === '' ? null : chat,
    grievanceOfficer: { name: text(officer.name), email: text(officer.email), phone: text(officer.phone) },
    signIn: signIn && start.startsWith('/') && !start.startsWith('//') ? { provider: text(signIn.provider), start } : null,
  };
}

let cached: ShopIdentity | null = null;
let fetching: Promise<void> | null = null;
const listeners = new Set<() => void>();

function embedded(): ShopIdentity | null {
  const json = embeddedJson(SHOP_IDENTITY_ELEMENT_ID);
  return json === undefined ? null : parseShopIdentity(json);
}

function settle(identity: ShopIdentity) {
  cached = identity;
  for (const listener of listeners) listener();
}

/** Asks the server when the page carries no identity (e.g. the development server's page); once per page. */
function fetchOnce() {
  if (fetching || typeof fetch === 'undefined') return;
  fetching = fetch(SHOP_IDENTITY_URL, { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : null))
    .then((json: unknown) => {
      const identity = parseShopIdentity(json);
      if (identity) settle(identity);
    })
    .catch((error: unknown) => console.error('[marque] the shop identity could not be loaded', error));
}

/** The shop's identity: read from the page once, then remembered. Without it, {@link UNKNOWN_SHOP}. */
export function shopIdentity(): ShopIdentity {
  if (cached) return cached;
  const identity = embedded();
  if (identity) {
    cached = identity;
    return identity;
  }
  return UNKNOWN_SHOP;
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  if (!cached && !embedded()) fetchOnce();
  return () => listeners.delete(onChange);
}

/** The shop's identity in a component; re-renders if it only arrives from the server later. */
export function useShopIdentity(): ShopIdentity {
  return useSyncExternalStore(subscribe, shopIdentity, shopIdentity);
}

/** Puts `identity` into the page as the server does and forgets what was read before (tests, previews). */
export function embedShopIdentity(identity: ShopIdentity | null) {
  document.getElementById(SHOP_IDENTITY_ELEMENT_ID)?.remove();
  if (identity) {
    const script = document.createElement('script');
    script.id = SHOP_IDENTITY_ELEMENT_ID;
    script.type = 'application/json';
    script.textContent = JSON.stringify(identity);
    document.head.append(script);
  }
  cached = null;
  fetching = null;
  for (const listener of listeners) listener();
}
