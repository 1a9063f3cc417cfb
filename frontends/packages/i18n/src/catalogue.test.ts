import { describe, expect, it } from 'vitest';
import { EN } from './catalogue';
import HI from './locales/hi/index';
import { OFFICE_MESSAGES } from '@marque/rules/office';
import { LAZY_TEXTS } from './lazy';

const DEVANAGARI = /[\u0900-\u097F]/;

describe('the catalogue', () => {
  it('has a Hindi text for every code, and no Hindi code without an English one', () => {
    for (const [ns, texts] of Object.entries(EN)) {
      const hindi = (HI as Record<string, Record<string, string>>)[ns] ?? {};
      expect(Object.keys(hindi).sort(), `namespace ${ns}`).toEqual(Object.keys(texts).sort());
      for (const [code, text] of Object.entries(hindi)) {
        expect(text.trim(), `${ns}:${code} is empty in Hindi`).not.toBe('');
      }
    }
  });

  it('keeps the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const [ns, texts] of Object.entries(EN)) {
      const hindi = (HI as Record<string, Record<string, string>>)[ns] ?? {};
      for (const [code, text] of Object.entries(texts as Record<string, string>)) {
        expect(placeholders(hindi[code] ?? ''), `${ns}:${code}`).toEqual(placeholders(text));
      }
    }
  });

  it('writes Hindi in Devanagari, not in Latin letters', () => {
    for (const [ns, texts] of Object.entries(HI as Record<string, Record<string, string>>)) {
      for (const [code, text] of Object.entries(texts)) {
        // Texts that are only numbers, symbols or names (e.g. 'GSTIN', '₹') may stay as they are.
        if (/[A-Za-z]{4,}/.test(text.replace(/\{\{\s*\w+\s*\}\}/g, '')) && !DEVANAGARI.test(text)) {
          throw new Error(`${ns}:${code} is not written in Hindi: ${text}`);
        }
      }
    }
  });

  it('has every lazy namespace in both languages with the same codes and placeholders, kept out of the bundled ones', async () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const [ns, loaders] of Object.entries(LAZY_TEXTS)) {
      expect(Object.keys(EN), `${ns} is not bundled`).not.toContain(ns);
      expect(Object.keys(HI), `${ns} is not in the Hindi bundle`).not.toContain(ns);
      const [english, hindi] = await Promise.all([loaders.en(), loaders.hi()]);
      expect(Object.keys(hindi).sort(), `namespace ${ns}`).toEqual(Object.keys(english).sort());
      for (const [code, text] of Object.entries(english)) {
        const translated = hindi[code] ?? '';
        expect(translated.trim(), `${ns}:${code} is empty in Hindi`).not.toBe('');
        expect(placeholders(translated), `${ns}:${code}`).toEqual(placeholders(text));
        if (/[A-Za-z]{4,}/.test(translated.replace(/\{\{\s*\w+\s*\}\}/g, '')) && !DEVANAGARI.test(translated)) {
          throw new Error(`${ns}:${code} is not written in Hindi: ${translated}`);
        }
      }
    }
  });

  it("keeps the messages only staff read out of the shoppers' bundled catalogue, in both languages", async () => {
    const office = Object.keys(OFFICE_MESSAGES);
    expect(office.length).toBeGreaterThan(0);
    for (const code of office) {
      expect(Object.keys(EN.messages), `${code} is bundled in English`).not.toContain(code);
      expect(Object.keys(HI.messages), `${code} is bundled in Hindi`).not.toContain(code);
    }
    expect(Object.keys(await LAZY_TEXTS.office.en()).sort()).toEqual([...office].sort());
  });
});
