/**
 * `virtual:extension-source`, made at build time by `scripts/code-view-plugin.mjs`: the Seed Desk
 * extension's files and the domain files it calls, highlighted, and their named regions.
 */
declare module 'virtual:extension-source' {
  export interface SourceFile {
    /** From the repository's root: `extension/command.ts`. */
    readonly path: string;
    /** The file's text, exactly as on disk. */
    readonly text: string;
    /**
     * One entry per line of `text` (split at `\n`): [class, length, class, length, …], the
     * lengths adding up to the line's. Class -1 is the page's own text colour; class i is `.tk<i>`
     * in `virtual:extension-source.css`.
     */
    readonly lines: readonly (readonly number[])[];
  }

  /** `// #region <name>: <description>` … `// #endregion` in a file; lines are 1-based, markers included. */
  export interface SourceRegion {
    readonly name: string;
    readonly description: string;
    readonly file: string;
    readonly start: number;
    readonly end: number;
  }

  export const files: readonly SourceFile[];
  export const regions: readonly SourceRegion[];
}
