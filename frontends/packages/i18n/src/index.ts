// The storefront's texts in English and Hindi, and the language the visitor chose.
// Components show texts by stable code: `const t = useT('listing'); t('refined_by')`.
// Shared by the shell and every remote as one singleton, so one switch changes every page at once.
import { createInstance } from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';
import { EN, type Key, type Namespace, type Translation } from './catalogue';

export type { Key, Namespace } from './catalogue';

/** The languages of the selector, each named in itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'hi', name: 'हिन्दी' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where the visitor's choice is remembered. */
export const LANGUAGE_STORAGE_KEY = 'language';

const i18n = createInstance();
void i18n.init({
  resources: { en: EN },
  lng: 'en',
  fallbackLng: 'en',
  ns: Object.keys(EN),
  // Codes hold dots (`catalog.not_found`); they are flat keys, not paths.
  keySeparator: false,
  nsSeparator: false,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  initAsync: false,
});

function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.code === value);
}

const loaded = new Set<Language>(['en']);

async function load(language: Language): Promise<void> {
  if (loaded.has(language)) return;
  const { default: catalogue }: { default: Translation } = await import(
    /* webpackChunkName: "i18n-hi" */ './locales/hi/index'
  );
  for (const [ns, texts] of Object.entries(catalogue)) i18n.addResourceBundle(language, ns, texts, true, true);
  loaded.add(language);
}

function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
}

function followInDocument(language: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/** Switches every text to `language` (loading its catalogue first), remembers it, and sets `<html lang>`. */
export async function setLanguage(language: Language): Promise<void> {
  await load(language);
  await i18n.changeLanguage(language);
  followInDocument(language);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private windows may refuse storage: the choice then lasts for this page only.
  }
}

/** Restores the remembered language; the shell awaits this before the first render, so no English flashes. */
export async function restoreLanguage(): Promise<void> {
  const language = storedLanguage();
  if (language === 'en') {
    followInDocument('en');
    return;
  }
  try {
    await setLanguage(language);
  } catch (error) {
    console.error('[marque] the Hindi texts could not be loaded', error);
  }
}

/** The current language. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

function subscribe(onChange: () => void) {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

/** The current language, re-rendering the component when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, () => 'en' as const);
}

/** Values put into a text's `{{placeholders}}`. */
export type Vars = Record<string, string | number>;
export type Translate<N extends Namespace> = (key: Key<N>, vars?: Vars) => string;

/** The text of `key` in namespace `ns`, in the current language (outside components). */
export function translate<N extends Namespace>(ns: N, key: Key<N>, vars?: Vars): string {
  return lookup(i18n.t)(key, { ns, ...vars });
}

/** i18next's own key typing knows nothing of our catalogue; `Key<N>` is the check that matters. */
function lookup(t: unknown) {
  return t as (key: string, options?: Vars & { ns?: Namespace }) => string;
}

/** A translator for one namespace; the component re-renders when the language changes. */
export function useT<N extends Namespace>(ns: N): Translate<N> {
  const language = useLanguage();
  return useMemo(() => {
    const fixed = lookup(i18n.getFixedT(language, ns));
    return (key: Key<N>, vars?: Vars) => fixed(key, vars);
  }, [language, ns]);
}
