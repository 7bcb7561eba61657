/**
 * The virtual modules `scripts/extension-graph-plugin.mjs` makes at build time (issue 23): the
 * shipped extension's import graph as text, the worker's own npm names for the edited extension,
 * and the download's npm bundle.
 */
declare module 'virtual:extension-graph' {
  /** `extension/seed-desk.ts`. */
  export const entry: string;
  /** Every repository file the entry reaches (type-only imports included): path → text. */
  export const files: Readonly<Record<string, string>>;
  /** npm specifier → the names the shipped graph takes from it. */
  export const npm: Readonly<Record<string, readonly string[]>>;
  export const hash: string;
}

declare module 'virtual:extension-npm' {
  /** npm specifier → the worker's own exports of the names the graph uses. */
  export const npmModules: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The graph's hash: a stored compiled version is reused only when it was made from these files. */
  export const graphHash: string;
}

declare module 'virtual:extension-npm-bundle' {
  /** The graph's npm names bundled into one ES module (for the download only). */
  export const code: string;
  /** specifier → name → the name the bundle exports it under. */
  export const exportNames: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
