// A product with five camera photographs (4000 × 3000 JPEG, as a phone or camera writes them), uploaded through the
// back office like a shop's staff would: the owner named by MARQUE_OWNER_EMAIL (the server prints the set-up link
// at start-up and, in `dev`, also leaves it in the outbox) sets a password, enrols TOTP, signs in and uploads.
// Used by bench/lighthouse.mjs to measure the product page with real photographs (issue 21).
import { json } from '../frontends/e2e/pages.mjs';
import { staffToken } from './staff.mjs';

export const BENCH_OWNER = 'bench-owner@marque.test';
const PASSWORD = 'bench owner password 21';

/** The owner's staff token: set-up code from the dev outbox, password and TOTP, then sign-in. */
async function ownerToken(base) {
  const outbox = JSON.stringify(await json(base, '/api/dev/outbox'));
  const code = /\/admin\/setup\?code=([A-Za-z0-9_-]+)/.exec(outbox)?.[1];
  if (!code) throw new Error(`no set-up link for ${BENCH_OWNER} in the dev outbox (is MARQUE_OWNER_EMAIL set?)`);
  return staffToken(base, BENCH_OWNER, code, PASSWORD);
}

/** Five 4000 × 3000 JPEGs with a camera's kind of detail (gradients, shapes, sensor noise), drawn by the browser. */
async function cameraPhotos(browser) {
  const page = await browser.newPage();
  try {
    const encoded = await page.evaluate(async () => {
      const out = [];
      for (let n = 0; n < 5; n += 1) {
        const canvas = new OffscreenCanvas(4000, 3000);
        const g = canvas.getContext('2d');
        const sky = g.createLinearGradient(0, 0, 4000, 3000);
        sky.addColorStop(0, `hsl(${n * 60}, 40%, 70%)`);
        sky.addColorStop(1, `hsl(${n * 60 + 30}, 30%, 25%)`);
        g.fillStyle = sky;
        g.fillRect(0, 0, 4000, 3000);
        for (let i = 0; i < 300; i += 1) {
          g.fillStyle = `hsla(${(i * 37 + n * 11) % 360}, 50%, ${30 + (i % 40)}%, 0.5)`;
          g.beginPath();
          g.arc((i * 977) % 4000, (i * 613) % 3000, 20 + (i % 200), 0, Math.PI * 2);
          g.fill();
        }
        const pixels = g.getImageData(0, 0, 4000, 3000);
        for (let i = 0; i < pixels.data.length; i += 4) {
          const grain = (Math.random() - 0.5) * 24;
          pixels.data[i] += grain;
          pixels.data[i + 1] += grain;
          pixels.data[i + 2] += grain;
        }
        g.putImageData(pixels, 0, 0);
        const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let text = '';
        for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        out.push(btoa(text));
      }
      return out;
    });
    return encoded.map((b64) => Buffer.from(b64, 'base64'));
  } finally {
    await page.close();
  }
}

/** Uploads five camera photographs to `productId` (in two uploads: the body limit takes four of the largest). */
export async function photographProduct(base, browser, productId) {
  const token = await ownerToken(base);
  const photos = await cameraPhotos(browser);
  for (const batch of [photos.slice(0, 3), photos.slice(3)]) {
    const form = new FormData();
    batch.forEach((bytes, i) => form.append('photos', new Blob([bytes], { type: 'image/jpeg' }), `camera-${i}.jpg`));
    const response = await fetch(`${base}/api/admin/products/${encodeURIComponent(productId)}/photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (response.status !== 201) throw new Error(`photo upload: ${response.status} ${await response.text()}`);
  }
  // A write shows on the storefront within a second (the catalog cache polls the database's change stamp).
  let photographed = [];
  for (let tries = 0; tries < 30 && photographed.length !== 5; tries += 1) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const { data } = await json(base, `/api/get/productById/${encodeURIComponent(productId)}`);
    photographed = data.images.filter((i) => i.width === 4000 && i.height === 3000 && i.variants?.length);
  }
  if (photographed.length !== 5) throw new Error(`the product shows ${photographed.length} photographs, not 5, after 3 s`);
  return `/product?productId=${encodeURIComponent(productId)}`;
}
