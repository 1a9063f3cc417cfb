// Helpers for tests of the shell and the remotes: a shop identity as the server would embed it.
import { embedShopIdentity, type ShopIdentity } from './shop-identity';

/** A complete identity with recognisable values. */
export const TEST_SHOP: ShopIdentity = {
  name: 'Marque Parts',
  legalName: 'Marque Parts Private Limited',
  address: '14 Okhla Industrial Estate Phase III, New Delhi 110020',
  gstin: '07AABCM1234F1Z5',
  state: 'Delhi',
  stateCode: '07',
  supportEmail: 'care@marqueparts.in',
  supportPhone: '+91 11 4000 1234',
  enquiryPhone: '+91 98100 12345',
  chatNumber: '919810012345',
  grievanceOfficer: { name: 'Anita Sharma', email: 'grievance@marqueparts.in', phone: '+91 11 4000 1299' },
  signIn: { provider: 'google', start: '/api/google' },
};

/** Writes `<script id="marque-shop">` into the document head, as every real storefront page has it. */
export function embedTestShop(overrides: Partial<ShopIdentity> = {}): ShopIdentity {
  const identity = { ...TEST_SHOP, ...overrides };
  embedShopIdentity(identity);
  return identity;
}

export { embedShopIdentity };
