/** The `meta` key of the learner's edited extension (docs/persisted-format.md); the worker reads it at start, the rest waits for edit/editing.ts. */
export const EDITED_KEY = 'editedExtension';
