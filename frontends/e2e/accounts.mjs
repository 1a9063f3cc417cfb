// A customer's account journey through the real server and the built frontends, in Debian's chromium at 360×740:
// sign up with a picture and verify the OTP read from the dev outbox; edit the profile (name and picture); log out;
// log in by mobile + OTP; heart a product on a card and on its page, see both in the wishlist and remove them;
// a second account signed up but not verified logs in by email + password and lands on the OTP view; and the
// Google dev sign-in in a popup.
// Exits non-zero on any failure, page errors included.
//
// Environment: see harness.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, check, recordLayoutShifts, serverBin, startServer, steps, watchCsp } from './harness.mjs';
import { writePngIn } from './png.mjs';
import { codeFor, outboxSize } from './outbox.mjs';


const TIMEOUT = 15_000;

const scratch = mkdtempSync(join(tmpdir(), 'marque-accounts-'));
let stopServer = async () => {};
let browser;
const { step, at: stepNumber } = steps('accounts');


/** A size×size PNG in the scratch folder. */
const writePng = (name, colour, size) => writePngIn(scratch, name, colour, size);

// ---- page helpers -------------------------------------------------------------------------------------------

/** A 10-digit Indian mobile number, different every run. */
const mobileNumber = () => `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

const menuButton = (page, name) => page.getByRole('button', { name: `Account menu of ${name}` });

async function openMenu(page, name) {
  const button = menuButton(page, name);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.locator('.header-menu__list');
}

async function token(page) {
  return page.evaluate(() => localStorage.getItem('token'));
}

/** Types the code into the OTP view and verifies; waits for the header's menu of `name`. */
async function verifyOtp(page, code, name) {
  await page.getByLabel('OTP').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await menuButton(page, name).waitFor();
  check(Boolean(await token(page)), 'signed in, but localStorage.token is not set');
}

async function signUp(page, base, account) {
  await page.goto(`${base}/login`);
  await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  await page.getByRole('button', { name: 'New here? Create an account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(account.password);
  if (account.picture) await page.getByLabel('Profile picture').setInputFiles(account.picture);
  await page.getByLabel('Mobile number').fill(account.mobile);
  const before = await outboxSize(base);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { level: 1, name: 'Verify OTP' }).waitFor();
  // One code went by SMS and another by email; either proves its own channel and signs in.
  await page.getByText(`Enter the OTP sent to ${account.mobile}, ${account.email}.`).waitFor();
  return before;
}

async function logOut(page, name) {
  const menu = await openMenu(page, name);
  await menu.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
  check((await token(page)) === null, 'logged out, but localStorage.token is still set');
}

/** The avatar's address in the header's menu button ('' for the drawn default). */
async function headerPicture(page, name) {
  const img = menuButton(page, name).locator('img');
  return (await img.count()) ? (await img.getAttribute('src')) ?? '' : '';
}

// ---- the journey -------------------------------------------------------------------------------------------

async function main() {
  step(`start ${serverBin}`);
  const started = await startServer(join(scratch, 'data'));
  stopServer = started.stop;
  const base = started.base;
  console.log(`    server at ${base}`);

  step(`launch ${chromiumPath} at 360×740`);
  browser = await chromium.launchPersistentContext(join(scratch, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 360, height: 740 },
  });
  const problems = [];
  // Every page of the context, the sign-in popup too, fails the journey on a CSP violation.
  await watchCsp(browser, problems);
  browser.on('page', (page) => {
    page.on('pageerror', (error) => problems.push(`page error at ${page.url()}: ${error.message}`));
    // Console errors are reported, not failed on: a refused call the page handles logs one too.
    page.on('console', (message) => {
      if (message.type() === 'error') console.log(`    console error at ${new URL(page.url()).pathname}: ${message.text()}`);
    });
    page.setDefaultTimeout(TIMEOUT);
  });
  // Every page the customer visits must stay still as it loads: at most LAYOUT_SHIFT_LIMIT of layout shift each.
  const shifts = await recordLayoutShifts(browser);
  const page = await browser.newPage();

  const run = Date.now().toString(36);
  const asha = {
    name: 'Asha Verma',
    email: `asha.${run}@example.in`,
    password: 'garage12!',
    mobile: mobileNumber(),
    picture: writePng('asha.png', [200, 16, 46]),
  };

  step("sign up with a picture → OTP view → the email's code from the outbox → signed in, picture in the header");
  let before = await signUp(page, base, asha);
  const ashaSignUp = before;
  await verifyOtp(page, await codeFor(base, [asha.email], before), asha.name);
  const firstPicture = await headerPicture(page, asha.name);
  check(firstPicture !== '', 'the header shows the default avatar, not the uploaded picture');
  const loaded = await menuButton(page, asha.name)
    .locator('img')
    .evaluate((img) => img.complete && img.naturalWidth > 0);
  check(loaded, `the header picture ${firstPicture} did not load`);
  console.log(`    ${asha.email}, ${asha.mobile}; picture ${firstPicture}`);

  step('edit the profile from the header menu: a new name and a new picture');
  await (await openMenu(page, asha.name)).getByRole('link', { name: 'My Profile' }).click();
  await page.waitForURL((url) => url.pathname === '/profile');
  await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
  await page.locator('.profile__name', { hasText: asha.name }).waitFor();
  await page.getByText(asha.email).waitFor();
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const renamed = 'Asha V. Kapoor';
  await page.getByLabel('Name', { exact: true }).fill(renamed);
  await page.getByLabel('Profile picture').setInputFiles(writePng('asha-2.png', [16, 90, 200], 48));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.profile__name', { hasText: renamed }).waitFor();
  await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
  asha.name = renamed;
  await menuButton(page, asha.name).waitFor();
  const secondPicture = await headerPicture(page, asha.name);
  check(secondPicture !== '' && secondPicture !== firstPicture, `the header picture did not change (${secondPicture})`);
  console.log(`    now ${renamed}; picture ${secondPicture}`);

  step('the mobile is not proven yet: the profile says so; Verify → the SMS code → proven');
  const unverified = page.locator('.profile__unverified');
  await unverified.waitFor();
  check((await unverified.count()) === 1, 'only the mobile should be unproven (the email code was used)');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('OTP').waitFor();
  // Within 30 s of the sign-up no new SMS is sent; the sign-up's SMS code is then still the live one.
  await page.getByLabel('OTP').fill(await codeFor(base, [asha.mobile], ashaSignUp));
  await page.getByRole('button', { name: 'Verify' }).click();
  await unverified.waitFor({ state: 'detached' });

  step('log out from the header menu: home, Login button, no token');
  await logOut(page, asha.name);

  step('log in by mobile + OTP (the default mode)');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByLabel('Mobile number').fill(asha.mobile);
  before = await outboxSize(base);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await page.getByText(`Enter the OTP sent to ${asha.mobile}.`).waitFor();
  await verifyOtp(page, await codeFor(base, [asha.mobile], before), asha.name);

  step('heart a product on a home card, another on its product page; both in the wishlist; Remove');
  await page.goto(`${base}/`);
  await page.getByRole('heading', { name: 'Recently Added Products' }).waitFor();
  await menuButton(page, asha.name).waitFor();
  const cards = page.locator('article.product-card');
  await cards.first().locator('.wishlist-heart button').waitFor();
  const cardHeart = cards.first().locator('.wishlist-heart button');
  const firstName = /^Add (.*) to your wishlist$/.exec(await cardHeart.getAttribute('aria-label'))?.[1];
  check(firstName, `the first card's heart is labelled "${await cardHeart.getAttribute('aria-label')}"`);
  await cardHeart.click();
  await cards.first().getByRole('button', { name: `Remove ${firstName} from your wishlist` }).waitFor();
  check((await cardHeart.locator('path').getAttribute('fill')) === 'currentColor', 'the card heart is not filled');
  console.log(`    card: ${firstName}`);
  // Another product, opened from its card, hearted on its page.
  const other = cards.nth(1);
  const otherName = /^Add (.*) to your wishlist$/.exec(await other.locator('.wishlist-heart button').getAttribute('aria-label'))?.[1];
  check(otherName && otherName !== firstName, 'the second card is not another product (or is already hearted)');
  await other.locator('a.product-card__link').first().click();
  await page.waitForURL((url) => url.pathname === '/product');
  await page.getByRole('heading', { level: 1, name: otherName }).waitFor();
  const detailHeart = page.locator('.wishlist-heart--detail button');
  await detailHeart.waitFor();
  check((await detailHeart.getAttribute('aria-label')) === `Add ${otherName} to your wishlist`, 'the product page heart is not an outline');
  await detailHeart.click();
  await page.getByRole('button', { name: `Remove ${otherName} from your wishlist` }).first().waitFor();
  check((await detailHeart.locator('path').getAttribute('fill')) === 'currentColor', 'the product page heart is not filled');
  console.log(`    product page: ${otherName}`);

  await (await openMenu(page, asha.name)).getByRole('link', { name: 'Wishlist' }).click();
  await page.waitForURL((url) => url.pathname === '/wishlist');
  await page.getByRole('heading', { level: 1, name: 'Your wishlist' }).waitFor();
  const entries = page.locator('article.wishlist-card');
  await entries.first().waitFor();
  const listed = await entries.locator('.product-card__title a').evaluateAll((links) => links.map((a) => a.title));
  check(
    listed.length === 2 && listed.includes(firstName) && listed.includes(otherName),
    `the wishlist lists ${JSON.stringify(listed)}, not the two hearted products`,
  );
  await page.getByRole('button', { name: `Remove ${firstName} from your wishlist` }).click();
  await page.getByRole('button', { name: `Remove ${firstName} from your wishlist` }).waitFor({ state: 'detached' });
  check((await entries.count()) === 1, 'the removed product is still listed');
  await page.getByRole('button', { name: `Remove ${otherName} from your wishlist` }).click();
  await page.getByText('Your wishlist is empty.').waitFor();
  await page.reload();
  await page.getByText('Your wishlist is empty.').waitFor();

  step('a second account signed up, not verified: email + password login gives the OTP view; the code signs in');
  await logOut(page, asha.name);
  const ravi = { name: 'Ravi Menon', email: `ravi.${run}@example.in`, password: 'spanner7#', mobile: mobileNumber() };
  // The sign-up's code is still live: the server sends no new one within 30 s (OTP_RESEND_AFTER_SECONDS), so the
  // code typed is the newest sent to Ravi since the sign-up, whichever of the two that is.
  const sinceSignUp = await signUp(page, base, ravi);
  await page.getByRole('button', { name: 'Already have an account? Log in' }).click();
  await page.getByRole('button', { name: 'Log in with email and password' }).click();
  await page.getByLabel('Email', { exact: true }).fill(ravi.email);
  await page.getByLabel('Password', { exact: true }).fill(ravi.password);
  before = await outboxSize(base);
  const loginAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  const answer = await (await loginAnswer).json();
  check(answer.status === 'not verified', `POST /api/login answered ${JSON.stringify(answer)}`);
  await page.getByRole('heading', { level: 1, name: 'Verify OTP' }).waitFor();
  await page.getByText(`Enter the OTP sent to ${ravi.mobile}, ${ravi.email}.`).waitFor();
  const sentAgain = (await outboxSize(base)) > before;
  console.log(`    'not verified'; ${sentAgain ? 'a new code was sent' : 'no new code (the sign-up one, under 30 s old, is live)'}`);
  // An email+password login needs a proven email: the email's code proves it.
  await verifyOtp(page, await codeFor(base, [ravi.email], sinceSignUp), ravi.name);
  check((await headerPicture(page, ravi.name)) === '', 'an account without a picture shows one');

  step('Google via the dev provider, in a popup');
  const google = await fetch(`${base}/api/google`, { redirect: 'manual' });
  check(google.status === 302, `GET /api/google answered ${google.status}, not a redirect to the sign-in page`);
  await logOut(page, ravi.name);
  await page.goto(`${base}/login`);
  const googleEmail = `meera.${run}@gmail.com`;
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  const popup = await popupOpened;
  popup.setDefaultTimeout(TIMEOUT);
  await popup.getByLabel('Email').fill(googleEmail);
  const closed = popup.waitForEvent('close', { timeout: TIMEOUT });
  await popup.getByRole('button', { name: 'Sign in' }).click();
  // The landing takes the token out of its address at once, so only the path is waited for.
  await popup.waitForURL((url) => url.pathname === '/login/success');
  await popup.getByText('You are Authenticated').waitFor();
  await closed;
  await page.locator('.header-menu__button').waitFor();
  check(Boolean(await token(page)), 'after Google sign-in, localStorage.token is not set');
  const label = await page.locator('.header-menu__button').getAttribute('aria-label');
  await page.locator('.header-menu__button').click();
  await page.getByRole('link', { name: 'My Profile' }).click();
  await page.getByText(googleEmail).waitFor();
  console.log(`    ${label}, ${googleEmail}`);

  await shifts.flush(page);
  shifts.check('accounts journey');
  await browser.close();
  browser = undefined;
  check(problems.length === 0, problems.join('\n'));
  console.log('PASS: accounts journey done');
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`FAIL at accounts step ${stepNumber()}: ${error instanceof Error ? error.stack : error}`);
} finally {
  await browser?.close().catch(() => {});
  await stopServer().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
