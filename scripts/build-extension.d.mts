import type { Plugin } from 'vite';

export const EXTENSION_ENTRY: string;
export const EXTENSION_OUTFILE: string;
export const EXTENSION_ASSET: string;
/** The bundle's text: one ES module whose default export is the OMP extension factory. */
export function bundleExtension(): Promise<string>;
export function writeExtension(): Promise<{ file: string; bytes: number }>;
/** Serves `/seed-desk.js` in dev and emits it into builds. */
export function seedDeskExtension(): Plugin;
