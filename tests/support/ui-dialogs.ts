// The admin UI's pages and dialogs as the browser tests drive them: a page loaded afresh, a row's dialog opened,
// a dialog submitted.
import type { Locator, Page } from 'playwright-core';

/** Loads a page afresh (nothing cached from before the test's own API calls) and waits until all its data has loaded. */
export async function visit(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await loaded(page);
}

/** Waits until the page has no loader left: a page may show several at once, one per query. */
export async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[aria-label="Loading"]') === null);
}

/** Clicks the button (in `scope`, by default anywhere on the page) and answers the dialog it opens. */
export async function openDialog(page: Page, button: string, title: string, scope: Page | Locator = page): Promise<Locator> {
  await scope.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
}

/** Submits the dialog and waits for it to close (the service took the change). */
export async function save(dialog: Locator, label: string): Promise<void> {
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}
