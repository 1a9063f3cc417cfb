// The storefront's texts in English and Hindi, and the language the visitor chose.
// Components show texts by stable code: `const t = useT('listing'); t('refined_by')`.
// Shared by the shell and every remote as one singleton, so one switch changes every page at once.
//
// The lookup is written here rather than taken from i18next: the catalogue is flat (namespace → code →
// text with `{{name}}` placeholders) and needs no plurals, nesting or formatting, while a shared module is
// served whole on every first page — i18next alone was 15 KB gzip of the home page's 150 KB budget.
import { useMemo, useSyncExternalStore } from 'react';
import { EN, type Key, type LazyNamespace, type Namespace, type Translation } from './catalogue';
import { LAZY_TEXTS } from './lazy';

export type { Key, LazyNamespace, Namespace } from './catalogue';

/** The languages of the selector, each named in itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'hi', name: 'हिन्दी' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where the visitor's choice is remembered. */
export const LANGUAGE_STORAGE_KEY = 'language';

type Texts = Record<string, Record<string, string>>;

/** The catalogues loaded so far; English is always there and fills any gap. */
const catalogues: Partial<Record<Language, Texts>> = { en: EN as unknown as Texts };
let language: Language = 'en';
const listeners = new Set<() => void>();

function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.code === value);
}

/** Lazy namespaces some page asked for: a language loaded later brings their texts too. */
const wantedLazy = new Set<LazyNamespace>();

async function loadLazy(lang: Language, ns: LazyNamespace): Promise<void> {
  if (catalogues[lang]?.[ns]) return;
  const texts = await LAZY_TEXTS[ns][lang]();
  catalogues[lang] = { ...catalogues[lang], [ns]: texts };
}

async function load(wanted: Language): Promise<void> {
  if (!catalogues[wanted]) {
    const { default: catalogue }: { default: Translation } = await import(
      /* webpackChunkName: "i18n-hi" */ './locales/hi/index'
    );
    catalogues[wanted] = { ...(catalogue as unknown as Texts), ...(catalogues[wanted] as Texts | undefined) };
  }
  await Promise.all([...wantedLazy].map((ns) => loadLazy(wanted, ns)));
}

/**
 * Loads a namespace that is not bundled with every page (`admin`), in English and the current language; `useT` on
 * it shows the codes until this resolves. Later language switches bring its texts too.
 */
export async function loadNamespace(ns: LazyNamespace): Promise<void> {
  wantedLazy.add(ns);
  await loadLazy('en', ns);
  if (language !== 'en') await loadLazy(language, ns);
  listeners.forEach((listener) => listener());
}

/** Whether a lazy namespace's texts are here in the current language. */
export function namespaceLoaded(ns: LazyNamespace): boolean {
  return Boolean(catalogues.en?.[ns] && catalogues[language]?.[ns]);
}

function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
}

function followInDocument(chosen: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = chosen;
}

/** Switches every text to `chosen` (loading its catalogue first), remembers it, and sets `<html lang>`. */
export async function setLanguage(chosen: Language): Promise<void> {
  await load(chosen);
  if (language !== chosen) {
    language = chosen;
    listeners.forEach((listener) => listener());
  }
  followInDocument(chosen);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, chosen);
  } catch {
    // Private windows may refuse storage: the choice then lasts for this page only.
  }
}

/** Restores the remembered language; the shell awaits this before the first render, so no English flashes. */
export async function restoreLanguage(): Promise<void> {
  const stored = storedLanguage();
  if (stored === 'en') {
    followInDocument('en');
    return;
  }
  try {
    await setLanguage(stored);
  } catch (error) {
    console.error('[marque] the Hindi texts could not be loaded', error);
  }
}

/** The current language. */
export function currentLanguage(): Language {
  return language;
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
  };
}

/** The current language, re-rendering the component when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, () => 'en' as const);
}

/** Values put into a text's `{{placeholders}}`. */
export type Vars = Record<string, string | number>;
export type Translate<N extends Namespace> = (key: Key<N>, vars?: Vars) => string;

/** The text of `code` in `lang`, English where that language lacks it, the code itself as a last resort. */
function text(lang: Language, ns: Namespace, code: string, vars?: Vars): string {
  const found = catalogues[lang]?.[ns]?.[code] ?? catalogues.en?.[ns]?.[code] ?? code;
  if (!vars) return found;
  return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : placeholder,
  );
}

/** The text of `key` in namespace `ns`, in the current language (outside components). */
export function translate<N extends Namespace>(ns: N, key: Key<N>, vars?: Vars): string {
  return text(language, ns, key, vars);
}

/** A translator for one namespace; the component re-renders when the language changes. */
export function useT<N extends Namespace>(ns: N): Translate<N> {
  const current = useLanguage();
  return useMemo(() => (key: Key<N>, vars?: Vars) => text(current, ns, key, vars), [current, ns]);
}
