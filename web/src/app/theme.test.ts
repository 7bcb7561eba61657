/**
 * The theme choice: kept in localStorage, read back at start (anything else is "system"), and
 * applied as `data-theme` on the document, or left to prefers-color-scheme.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage, refusingStorage, stubStorage } from './pageGlobals.testkit';
import { applyTheme, loadTheme } from './theme';

const THEME_KEY = 'seed-desk:theme';
let root: { dataset: Record<string, string | undefined> };

beforeEach(() => {
  root = { dataset: {} };
  vi.stubGlobal('document', { documentElement: root });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('theme', () => {
  it('starts from the system\'s choice when nothing was chosen', () => {
    stubStorage('localStorage');
    expect(loadTheme()).toBe('system');
  });

  it('pins light or dark, and the choice is read back on the next visit', () => {
    const storage = new MemoryStorage();
    stubStorage('localStorage', storage);
    applyTheme('dark');
    expect(root.dataset['theme']).toBe('dark');
    expect(storage.getItem(THEME_KEY)).toBe('dark');
    expect(loadTheme()).toBe('dark');
    applyTheme('light');
    expect(root.dataset['theme']).toBe('light');
    expect(loadTheme()).toBe('light');
  });

  it('"system" removes the pin, so prefers-color-scheme decides again', () => {
    const storage = new MemoryStorage();
    stubStorage('localStorage', storage);
    applyTheme('dark');
    applyTheme('system');
    expect('theme' in root.dataset).toBe(false);
    expect(loadTheme()).toBe('system');
  });

  it('a stored value it does not know is read as "system"', () => {
    const storage = new MemoryStorage();
    stubStorage('localStorage', storage);
    storage.setItem(THEME_KEY, 'sepia');
    expect(loadTheme()).toBe('system');
  });

  it('where storage is refused, the choice still applies, for this visit only', () => {
    stubStorage('localStorage', refusingStorage);
    expect(loadTheme()).toBe('system');
    expect(() => applyTheme('dark')).not.toThrow();
    expect(root.dataset['theme']).toBe('dark');
  });
});
