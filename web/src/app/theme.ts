/** Persisted name. Changing it forgets every learner's theme choice (harmless, but say so). */
const THEME_KEY = 'seed-desk:theme';

export type ThemeChoice = 'system' | 'light' | 'dark';

export function loadTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** `system` leaves the choice to prefers-color-scheme; the others pin it with data-theme. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = choice;
  try {
    localStorage.setItem(THEME_KEY, choice);
  } catch {
    // The choice then lasts for this visit only.
  }
}
