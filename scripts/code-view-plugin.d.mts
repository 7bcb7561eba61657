import type { Plugin } from 'vite';

export interface CodeRegion {
  readonly name: string;
  readonly description: string;
  readonly file: string;
  /** 1-based lines of the `#region` and `#endregion` markers. */
  readonly start: number;
  readonly end: number;
}

export interface CodeFile {
  readonly path: string;
  readonly text: string;
  /** Per line: [class, length, class, length, …]; class PLAIN (-1) is the page's own text colour. */
  readonly lines: readonly (readonly number[])[];
}

export interface PaletteEntry {
  readonly light: string;
  readonly dark: string;
  readonly fontStyle: number;
}

export const VIRTUAL_ID: 'virtual:extension-source';
export const VIRTUAL_CSS_ID: 'virtual:extension-source.css';
export const DOMAIN_FILES: readonly string[];
export const THEMES: { readonly light: string; readonly dark: string };
export const CODE_BACKGROUNDS: Readonly<Record<'light' | 'dark', { bg: string; panel: string; accent: string }>>;
export const REGION_TINT: number;
export const MIN_CONTRAST: number;
export const PLAIN: -1;
export function codeFiles(root?: string): string[];
export function extractRegions(file: string, text: string): CodeRegion[];
export function mix(a: string, b: string, share: number): string;
export function contrast(a: string, b: string): number;
export function backgroundsFor(scheme: 'light' | 'dark'): string[];
export function readable(hex: string, scheme: 'light' | 'dark'): string;
export function buildExtensionSource(root?: string): Promise<{ files: CodeFile[]; regions: CodeRegion[]; palette: PaletteEntry[]; css: string }>;
export function paletteCss(palette: readonly PaletteEntry[]): string;
/** Serves `virtual:extension-source` (files and regions as data) and `virtual:extension-source.css`. */
export function codeViewPlugin(): Plugin;
