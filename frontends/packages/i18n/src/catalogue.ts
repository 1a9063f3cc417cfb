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

/** The catalogue's shape: namespace → code → text. */
export type Catalogue = typeof EN;
export type Namespace = keyof Catalogue;
/** A stable code in one namespace. */
export type Key<N extends Namespace> = keyof Catalogue[N] & string;
/** The same codes with another language's texts. */
export type Translation = { [N in Namespace]: { [K in Key<N>]: string } };
