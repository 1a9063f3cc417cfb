// The dev outbox (GET /api/dev/outbox, MARQUE_ENV=dev): where the journeys read the one-time codes the server sent.

import { check } from './harness.mjs';

export async function outbox(base) {
  const response = await fetch(`${base}/api/dev/outbox`);
  check(response.ok, `/api/dev/outbox answered ${response.status} (is MARQUE_ENV=dev?)`);
  return response.json();
}

/**
 * The 6-digit code of the newest message to one of `recipients` that arrived after the outbox had `before`
 * messages (the outbox lists the newest first); waits for it.
 */
export async function codeFor(base, recipients, before, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const messages = await outbox(base);
    const fresh = messages.slice(0, Math.max(0, messages.length - before));
    const message = fresh.find((m) => recipients.includes(m.recipient) && /\b\d{6}\b/.test(m.text));
    if (message) {
      console.log(`    code sent by ${message.channel} to ${message.recipient}`);
      return /\b(\d{6})\b/.exec(message.text)[1];
    }
    check(Date.now() < deadline, `no new code for ${recipients.join(' / ')} in the outbox: ${JSON.stringify(messages.slice(0, 3))}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

export const outboxSize = async (base) => (await outbox(base)).length;
