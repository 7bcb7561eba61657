/** Step id → the extension's files as that step's prepared edits leave them (only those that differ from the shipped ones). */
export function preparedEdits(): Map<string, Record<string, string>>;
/** One self-contained ES module of the extension with `files` (path → text) in place of the shipped ones. */
export function bundleVariant(files: Record<string, string>): Promise<string>;
