import type { Plugin } from 'vite';

export const GRAPH_ID: 'virtual:extension-graph';
export const NPM_ID: 'virtual:extension-npm';
export const NPM_BUNDLE_ID: 'virtual:extension-npm-bundle';
export const GRAPH_ENTRY: string;

export interface ExtensionGraph {
  readonly entry: string;
  /** Path from the repository's root → the file's text, sorted by path. */
  readonly files: Readonly<Record<string, string>>;
  /** The npm (bare) specifiers the graph imports. */
  readonly bare: readonly string[];
  /** [importer, imported] for every relative import, type-only ones included. */
  readonly edges: readonly (readonly [string, string])[];
}

export function extensionGraph(root?: string, entry?: string): Promise<ExtensionGraph>;
/** npm specifier → the names the graph takes from it (`default` for a default import). */
export function npmNames(graph: ExtensionGraph): Promise<Record<string, string[]>>;
export function graphHash(graph: ExtensionGraph, npm: Readonly<Record<string, readonly string[]>>): string;
export function bundledName(index: number, name: string): string;
export function npmBundle(npm: Readonly<Record<string, readonly string[]>>, root?: string): Promise<string>;
export function npmModuleSource(npm: Readonly<Record<string, readonly string[]>>, hash: string): string;
/** Serves `virtual:extension-graph`, `virtual:extension-npm` and `virtual:extension-npm-bundle`. */
export function extensionGraphPlugin(root?: string): Plugin;
