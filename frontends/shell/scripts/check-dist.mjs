// After a build: the page the server rewrites must still carry what the server looks for.
import { readFileSync } from 'node:fs';

const html = readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8');
const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
const problems = [
  [html.split('<title>Marque Parts</title>').length === 2, 'exactly one <title>Marque Parts</title>'],
  [head.includes('<!--marque-head-->'), 'the <!--marque-head--> marker inside <head>'],
  [head.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'), 'the viewport meta tag'],
  [/<script defer="defer" src="\/main\.js"><\/script>|<script defer src="\/main\.js"><\/script>/.test(html), 'the /main.js entry script'],
].filter(([ok]) => !ok);
for (const [, what] of problems) console.error(`shell/dist/index.html lacks ${what}`);
if (problems.length > 0) process.exit(1);
console.log('shell/dist/index.html carries the title, the head marker and the entry script');
