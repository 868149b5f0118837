// SPDX-License-Identifier: MIT
// Small Playwright helpers shared by the playground suites: open the page at a size, send a
// message and wait for its turn to end, switch a tab.

/** A new page at `width`×`height` with the playground loaded and ready. */
export async function openAt(context, url, width, height) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-state="ready"]', { timeout: 30000 });
  return page;
}

/** Runs `action` and waits for the turn it starts to end; returns the turn note's text. */
export async function turn(page, action) {
  const before = await page.locator('#chat .note.turn').count();
  await action();
  await page.locator('#chat .note.turn').nth(before).waitFor({ timeout: 30000 });
  await page.waitForSelector('#send:not([disabled])');
  return page.locator('#chat .note.turn').nth(before).textContent();
}

/** Sends a message and waits for its turn to end. */
export function send(page, text) {
  return turn(page, async () => {
    await page.fill('#composer-input', text);
    await page.click('#send');
  });
}

export async function tab(page, id) {
  await page.click(`#${id}`);
  await page.waitForSelector(`#${id}[aria-selected="true"]`);
}
