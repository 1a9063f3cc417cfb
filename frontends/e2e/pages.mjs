// The storefront's pages as a first-time visitor and a signed-in customer open them, with real slugs and ids from a
// running `dev` server's seeded catalog, and a customer prepared through the API to reach the account and checkout
// pages: signed up (code from the dev outbox), one wishlist item, one address, one order paid through the sandbox.
// Used by e2e/budget.mjs (first-load JavaScript and layout shift of every page) and bench/lighthouse.mjs.
import { codeFor, outboxSize } from './outbox.mjs';

/** A JSON call of the API at `base`; throws with the server's answer when it is not 2xx. */
export async function json(base, path, init = {}) {
  const response = await fetch(`${base}${path}`, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Request options of a call as the customer with `token`, with a JSON body. */
export const authed = (token, method, body) => ({
  method,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/**
 * Every page to measure: `visitor` pages need no session, `customer` pages are opened with `storage` (the session's
 * token and a cart line) in local storage. Each is `[name, path, ready]`, `ready` a CSS selector that shows once the
 * page has its content.
 */
export async function storefrontPages(base) {
  const { data: categories } = await json(base, '/api/get/category');
  let grouped;
  for (const category of categories) {
    const listing = await json(base, `/api/get/product/${category.slug}`);
    if (listing.subcategory.some((group) => group.products.length > 0)) {
      grouped = listing;
      break;
    }
  }
  if (!grouped) throw new Error('no category has products');
  const sample = grouped.subcategory.find((g) => g.products.length > 0).products[0];
  const { data: recent } = await json(base, '/api/get/new-products');
  const inStock = recent.filter((p) => p.quantity >= 1);
  if (inStock.length < 4) throw new Error('fewer than 4 recent products in stock');
  const [wished, bought, shown, carted] = inStock;
  const token = await prepareCustomer(base, wished._id, bought._id);
  const cartLine = {
    _id: carted._id,
    name: carted.name,
    price: carted.price,
    producttype: carted.producttype,
    images: carted.images.map((i) => ({ name: i.name })),
    quantity: 1,
  };
  const cat = grouped.category.slug;
  return {
    visitor: [
      ['home', '/', 'article.product-card'],
      ['search', '/search?search=disc&page=1', 'article.product-card'],
      ['category', `/category/${cat}`, 'article.product-card'],
      ['category-filtered', `/category/${cat}?oem=${sample.oem_slug}&page=1`, 'article.product-card'],
      ['subcategory', `/subcategory/${cat}/${sample.subcategory_slug}?page=1`, 'article.product-card'],
      ['brand', `/brand/${sample.oem_slug}?page=1`, 'article.product-card'],
      ['product', `/product?productId=${encodeURIComponent(shown._id)}`, 'h1'],
      ['login', '/login', 'form'],
    ],
    customer: [
      ['wishlist', '/wishlist', 'main h1'],
      ['address', '/address', 'main h1'],
      ['review', '/review', 'main h1'],
      ['orderhistory', '/orderhistory', 'main h1'],
    ],
    storage: { token, products: JSON.stringify([cartLine]) },
  };
}

/** A customer signed up through the API (the code from the dev outbox) with a Delhi address (Janpath, New Delhi):
 * `{ token, addressId }`. */
export async function signedUpWithAddress(base, name = 'Page Visitor', label = 'pages') {
  const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const form = new FormData();
  for (const [k, v] of Object.entries({ name, email: `${label}.${mobile}@example.in`, password: 'Pages@2026', mobile })) {
    form.append(k, v);
  }
  const before = await outboxSize(base);
  await json(base, '/api/register', { method: 'POST', body: form });
  const otp = await codeFor(base, [mobile], before);
  const { token } = await json(base, '/api/verify', authed('', 'POST', { mobile, otp }));
  const { user } = await json(base, '/api/user', { headers: { authorization: `Bearer ${token}` } });
  const address = { houseNo: '12', street: 'Janpath', landmark: '', city: 'New Delhi', state: 'Delhi', mobileNo: mobile, pincode: '110001', gstin: '' };
  const added = await json(base, `/api/add/address/${user._id}`, authed(token, 'PATCH', address));
  return { token, addressId: added._id };
}

/** A signed-up customer with `wished` in the wishlist, one address and one paid order of `bought`; its token. */
export async function prepareCustomer(base, wished, bought) {
  const { token, addressId } = await signedUpWithAddress(base);
  await json(base, '/api/add/wishlist', authed(token, 'POST', { _id: wished }));
  await payFor(base, token, addressId, [{ _id: bought, quantity: 1 }]);
  return token;
}

/** Pays for `products` (`{ _id, quantity }`) to the address `addressId` through the sandbox checkout, as the customer
 * with `token`; the sandbox's payment id. */
export async function payFor(base, token, addressId, products) {
  const { payment } = await json(base, '/api/get/shop');
  const pay = await json(base, '/api/razorpay/pay', authed(token, 'POST', { products, address: { _id: addressId } }));
  const handler = await json(base, '/sandbox/razorpay/pay', authed('', 'POST', { order_id: pay.paymentResponse.id, key_id: payment.key, outcome: 'success' }));
  await json(base, '/api/razorpay/success', authed(token, 'POST', { razorpayOption: { order_id: pay.paymentResponse.id, ...handler } }));
  return { paymentId: handler.razorpay_payment_id };
}
