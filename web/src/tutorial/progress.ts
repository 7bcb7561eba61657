/** The tutorial's ticks, kept in localStorage by step id. */

/** Persisted name. CHANGING IT LOSES EVERY LEARNER'S PROGRESS. */
const PROGRESS_KEY = 'seed-desk:tutorial-progress';

export function loadProgress(): ReadonlySet<string> {
  try {
    const raw = localStorage.getItem(PROGRESS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : []);
  } catch {
    return new Set();
  }
}

export function saveProgress(completed: ReadonlySet<string>): void {
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify([...completed]));
  } catch {
    // Storage may be full or disabled: progress then lasts for this visit only.
  }
}
