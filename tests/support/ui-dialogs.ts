// The admin UI's pages and dialogs as the browser tests drive them: a page loaded afresh, a row's dialog opened,
// a dialog's fields filled, a dialog submitted.
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

/** Submits the dialog and waits for it to close (the service took the change) and, given `said`, for the notification saying so. */
export async function save(dialog: Locator, label: string, said?: string): Promise<void> {
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  if (said) await confirmed(dialog.page(), said);
}

/** Waits for the notification confirming that an action worked. */
export async function confirmed(page: Page, said: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: said }).waitFor();
}

/** The text field named exactly `name` in `within`. */
export const textbox = (within: Page | Locator, name: string) => within.getByRole('textbox', { name, exact: true });

/** Opens the Select named `field` in `within` and clicks its option named `option` (the list opens outside `within`). */
export async function pick(within: Locator, field: string, option: string): Promise<void> {
  await within.getByRole('combobox', { name: field, exact: true }).click();
  await within.page().getByRole('option', { name: option, exact: true }).click();
}

/** The rows of the table named `table` that show `text`. */
export const row = (page: Page, table: string, text: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
