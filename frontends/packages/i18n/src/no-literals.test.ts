// Components show texts by code from the catalogue; a user-facing literal in a component is a text Hindi never gets.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const FRONTENDS = fileURLToPath(new URL('../../..', import.meta.url));
/** Where storefront components live. */
const SOURCES = ['shell/src', 'catalog/src', 'account/src', 'checkout/src', 'admin/src', 'packages/ui/src', 'packages/session/src', 'packages/cart/src'];
/** Attributes a visitor reads or hears. */
const TEXT_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'placeholder', 'title', 'alt', 'label']);
/** Calls whose argument becomes the page title. */
const TEXT_CALLS = new Set(['useDocumentTitle', 'documentTitle']);
// The whole Devanagari block by its code points (its first ones are combining signs, which this rule means to catch
// in literal text, not in a range).
// eslint-disable-next-line no-misleading-character-class
const WORDS = /[A-Za-z\u0900-\u097F]{2,}/;

function components(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : components(path);
    return /\.tsx$/.test(name) && !/\.test\.tsx$/.test(name) ? [path] : [];
  });
}

/** `file:line: text` for every literal a visitor would see. */
export function literalTexts(path: string, source = readFileSync(path, 'utf8')): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(FRONTENDS, path)}:${line + 1}: ${text.trim()}`);
  };
  const literal = (node: ts.Node | undefined): string | undefined =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && WORDS.test(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && node.parent && !ts.isJsxAttribute(node.parent)) {
      const text = literal(node.expression);
      if (text && WORDS.test(text)) report(node, text);
    }
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText())) {
      const init = node.initializer;
      const text = literal(init) ?? (init && ts.isJsxExpression(init) ? literal(init.expression) : undefined);
      if (text && WORDS.test(text)) report(node, text);
    }
    if (ts.isCallExpression(node) && TEXT_CALLS.has(node.expression.getText())) {
      const text = literal(node.arguments[0]);
      if (text && WORDS.test(text)) report(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('storefront components', () => {
  it('finds the literals this check is about', () => {
    const sample = `const A = () => <p title="Close">Hello <b>{'world'}</b>{t('ok')} — {count}</p>; useDocumentTitle('About us');`;
    expect(literalTexts('sample.tsx', sample).map((l) => l.split(': ')[1])).toEqual(['Close', 'Hello', 'world', 'About us']);
  });

  it('hold no user-facing text outside the catalogue', () => {
    const found = SOURCES.flatMap((dir) => components(join(FRONTENDS, dir))).flatMap((path) => literalTexts(path));
    expect(found).toEqual([]);
  });
});
