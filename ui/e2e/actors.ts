import type { Locator, Page } from 'playwright-core';

/**
 * How a test person works the screens: with a pointer (click, fill) or with the keyboard only (Tab to a
 * control, Enter or Space to press it, type into it). The walk-through runs with both; the keyboard
 * actor never clicks, so every step it passes is reachable and operable without a mouse.
 */
export interface Actor {
  readonly name: string;
  press(target: Locator): Promise<void>;
  fill(target: Locator, text: string): Promise<void>;
  /** Picks an option of a combobox (Select, Autocomplete) by its text. */
  choose(target: Locator, option: string): Promise<void>;
  check(target: Locator): Promise<void>;
}

export const pointer: Actor = {
  name: 'pointer',
  press: (target) => target.click(),
  fill: (target, text) => target.fill(text),
  choose: async (target, option) => {
    await target.click();
    await target.fill(option);
    await optionNamed(target.page(), option).click();
  },
  check: (target) => target.check(),
};

/** The option whose accessible name starts with `text` (options may add a label after the value). */
function optionNamed(page: Page, text: string): Locator {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByRole('option', { name: new RegExp(`^${escaped}(\\b|\\s|$)`) }).first();
}

/** The most Tab presses to reach a control before the test says it cannot be reached. */
const MAX_TABS = 150;

async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate(
    (element) => element === document.activeElement || element.contains(document.activeElement),
  );
}

/** Tabs forward (and, if needed, backward) until `target` has focus. */
export async function tabTo(page: Page, target: Locator): Promise<void> {
  await target.waitFor({ state: 'visible' });
  if (await isFocused(target)) return;
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < MAX_TABS; i++) {
      await page.keyboard.press(key);
      if (await isFocused(target)) return;
    }
  }
  throw new Error(`cannot reach ${target.toString()} with the keyboard`);
}

export const keyboard: Actor = {
  name: 'keyboard',
  press: async (target) => {
    const page = target.page();
    await tabTo(page, target);
    const tag = await target.evaluate((element) => element.tagName.toLowerCase());
    await page.keyboard.press(tag === 'a' ? 'Enter' : 'Space');
  },
  fill: async (target, text) => {
    const page = target.page();
    await tabTo(page, target);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  },
  choose: async (target, option) => {
    const page = target.page();
    await tabTo(page, target);
    await page.keyboard.type(option);
    const wanted = optionNamed(page, option);
    await wanted.waitFor();
    // Down to the wanted option (the list may hold several that match the typed text), then Enter.
    for (let i = 0; i < 50; i++) {
      await page.keyboard.press('ArrowDown');
      if (
        (await wanted.getAttribute('aria-selected')) === 'true' ||
        (await wanted.getAttribute('data-combobox-selected')) !== null
      )
        break;
    }
    await page.keyboard.press('Enter');
  },
  check: async (target) => {
    const page = target.page();
    if ((await target.getAttribute('type')) === 'radio') {
      // A radio group is one Tab stop (its checked radio); the arrow keys move the choice.
      const group = target.locator('xpath=ancestor::*[@role="radiogroup"][1]');
      await tabTo(page, group.getByRole('radio', { checked: true }));
      for (let i = 0; i < 10 && !(await target.isChecked()); i++) await page.keyboard.press('ArrowDown');
      if (!(await target.isChecked()))
        throw new Error(`cannot choose ${target.toString()} with the arrow keys`);
      return;
    }
    await tabTo(page, target);
    if (!(await target.isChecked())) await page.keyboard.press('Space');
  },
};
