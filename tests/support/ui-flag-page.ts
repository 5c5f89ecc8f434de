// What the flag page's and strategies' browser tests share.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page does not scroll sideways at 800 × 900 (`then` runs at that size); back at its former size afterwards. */
export async function fitsAt800(page: Page, what: string, then?: () => Promise<void>): Promise<void> {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 800, height: 900 });
  try {
    // A frame for whatever the page lays out again at the new width.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth, `${what} scrolls sideways at 800 px`).toBeLessThanOrEqual(clientWidth);
    await then?.();
  } finally {
    await page.setViewportSize(before);
  }
}
