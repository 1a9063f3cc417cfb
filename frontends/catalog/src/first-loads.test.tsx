// contract/first-loads.json, the frontends' side: at every example address, the page's hooks ask exactly the calls
// the server embeds there (the server's test, in apps/storefront/src/first_load.rs, opens the same examples). A hook
// that asks for a call the server does not embed goes to the network; an embedded answer no hook asks for is
// left over. Either fails here.
import { forgetInitialAnswers, INITIAL_DATA_ELEMENT_ID, initialAnswersLeft, type InitialAnswer } from '@marque/api-client';
import { embedInitialAnswers, fakeServer, type FakeRoutes, type FakeServer } from '@marque/api-client/testing';
import { embedTestShop } from '@marque/ui/testing';
import { render, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import firstLoads from '../../../contract/first-loads.json';
import Brand from './expose/Brand';
import Category from './expose/Category';
import Home from './expose/Home';
import Product from './expose/Product';
import Search from './expose/Search';
import Subcategory from './expose/Subcategory';
import { aHotSellingItem, aProduct } from './test/fixtures';
import { listingRoutes } from './test/listing-shop';

const PAGES: Record<string, ComponentType> = {
  'catalog/Home': Home,
  'catalog/Search': Search,
  'catalog/Product': Product,
  'catalog/Brand': Brand,
  'catalog/Category': Category,
  'catalog/Subcategory': Subcategory,
};

const searchPage = (url: URL) => ({
  status: 'success',
  results: [aProduct()],
  pages: 3,
  page: Number(url.searchParams.get('page') ?? 1),
  total: 5,
});

/** Every call of the catalog's pages, answered from the listing shop's data. */
const routes: FakeRoutes = {
  ...listingRoutes(),
  '/api/get/new-products': () => ({ status: 'success', data: [aProduct()] }),
  '/api/get/suggestion': () => ({ status: 'success', result: [aHotSellingItem()] }),
  '/api/get/productById/{id}': ({ params }) => ({ status: 'success', data: aProduct({ _id: params.id }) }),
  '/api/get/productBySearch': ({ url }) => searchPage(url),
  '/api/get/productByOem/{brandSlug}': ({ url }) => searchPage(url),
  // The car chip names a car of the address that the garage does not hold from its generation's vehicles.
  '/api/get/vehicles': () => ({
    status: 'success',
    vehicles: [
      { id: 'bmw-x5-g05.b57', make: 'BMW', model: 'X5', generation: 'G05', engine: '3.0d', engineCode: 'B57', fuel: 'diesel', years: { from: 2018, to: null } },
    ],
  }),
};

let server: FakeServer | undefined;
afterEach(() => {
  server?.restore();
  document.getElementById(INITIAL_DATA_ELEMENT_ID)?.remove();
  forgetInitialAnswers();
});

/** The answers the server would embed for `calls` (this fake shop's bodies), as it writes them. */
async function embedAnswers(calls: string[]) {
  const answers: InitialAnswer[] = [];
  const asked = fakeServer(routes);
  try {
    for (const call of calls) {
      const url = new URL(call, window.location.origin);
      const response = await fetch(url);
      expect(response.status, call).toBe(200);
      answers.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), body: await response.json() });
    }
  } finally {
    asked.restore();
  }
  embedInitialAnswers(answers);
}

describe('contract/first-loads.json', () => {
  it('names a page component for every page it lists, and each call is one of the page operations', () => {
    for (const [page, loads] of Object.entries(firstLoads.pages)) {
      expect(PAGES[page], page).toBeDefined();
      const templates = loads.operations.map((operation) => {
        const [method = '', path = ''] = operation.split(' ');
        expect(method, operation).toBe('GET');
        return new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      });
      for (const call of loads.examples.flatMap((example) => example.calls)) {
        const path = new URL(call, 'http://shop').pathname;
        expect(templates.some((template) => template.test(path)), `${page}: ${call}`).toBe(true);
      }
    }
  });

  for (const [page, loads] of Object.entries(firstLoads.pages)) {
    for (const example of loads.examples) {
      it(`${page} at ${example.address} asks exactly the calls the server embeds, all answered from the page`, async () => {
        window.history.replaceState(null, '', example.address);
        // Every page carries the shop's identity too (`scripts.shop`), read without a call.
        embedTestShop();
        await embedAnswers(example.calls);
        server = fakeServer(routes);
        const Page = PAGES[page]!;
        render(<Page />);
        await waitFor(() => expect(initialAnswersLeft()).toEqual([]));
        // Give a hook that would ask later (after a first answer) the time to do so.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(server.requests.filter((request) => request.startsWith('/api/'))).toEqual([]);
      });
    }
  }
});
