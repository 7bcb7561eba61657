/** The `meta` key of the learner's own extension (issue 37); the worker reads it at start, the rest waits for edit/ownExtension.ts. */
export const OWN_KEY = 'ownExtension';

/** Whether a stored record (the edited extension's `StoredEdit`, the own extension's `StoredOwn`) is to run again after a reload. */
export function storedActive(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  try {
    return (JSON.parse(raw) as { active?: unknown }).active === true;
  } catch {
    return false;
  }
}
