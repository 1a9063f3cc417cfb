// The English catalogue, bundled: every text of the storefront by namespace and stable code.
// Messages of the shop's rules come from the Rust domain (generated); UI labels from the JSON files here.
import { MESSAGES } from '@marque/rules';
import account from './locales/en/account.json';
import checkout from './locales/en/checkout.json';
import common from './locales/en/common.json';
import home from './locales/en/home.json';
import listing from './locales/en/listing.json';
import product from './locales/en/product.json';
import shell from './locales/en/shell.json';

export const EN = { account, checkout, common, home, listing, product, shell, messages: MESSAGES };

/**
 * Namespaces kept out of the bundle every page loads: their texts (English and Hindi) are fetched by
 * `loadNamespace` when the part of the site that needs them opens (the storefront's garage panel: `garage`; the back
 * office: `admin` for its labels, `office` for the rules' messages only staff read, generated apart from the
 * shoppers' `messages`), so the storefront's
 * first-load JavaScript does not carry them.
 */
export type LazyCatalogue = {
  admin: typeof import('./locales/en/admin.lazy.json');
  /** The storefront's garage panel (loaded with it from the catalog remote). */
  garage: typeof import('./locales/en/garage.lazy.json');
  office: typeof import('@marque/rules/office').OFFICE_MESSAGES;
};
export type LazyNamespace = keyof LazyCatalogue;

/** The catalogue's shape: namespace → code → text. */
export type Catalogue = typeof EN & LazyCatalogue;
export type Namespace = keyof Catalogue;
/** A stable code in one namespace. */
export type Key<N extends Namespace> = keyof Catalogue[N] & string;
/** The same codes with another language's texts (the namespaces every page bundles). */
export type Translation = { [N in keyof typeof EN]: { [K in Key<N>]: string } };
/** A lazy namespace's texts in another language. */
export type LazyTranslation<N extends LazyNamespace> = { [K in Key<N>]: string };
