// Where each lazy namespace's texts come from, per language: separate chunks, fetched when first needed.
import type { LazyNamespace } from './catalogue';

type Loader = () => Promise<Record<string, string>>;

export const LAZY_TEXTS: Record<LazyNamespace, Record<'en' | 'hi', Loader>> = {
  admin: {
    en: () => import(/* webpackChunkName: "i18n-admin-en" */ './locales/en/admin.lazy.json').then((m) => m.default),
    hi: () => import(/* webpackChunkName: "i18n-admin-hi" */ './locales/hi/admin.lazy.json').then((m) => m.default),
  },
  garage: {
    en: () => import(/* webpackChunkName: "i18n-garage-en" */ './locales/en/garage.lazy.json').then((m) => m.default),
    hi: () => import(/* webpackChunkName: "i18n-garage-hi" */ './locales/hi/garage.lazy.json').then((m) => m.default),
  },
  office: {
    en: () => import(/* webpackChunkName: "i18n-office-en" */ '@marque/rules/office').then((m) => m.OFFICE_MESSAGES),
    hi: () => import(/* webpackChunkName: "i18n-office-hi" */ './locales/hi/office.lazy.json').then((m) => m.default),
  },
};
