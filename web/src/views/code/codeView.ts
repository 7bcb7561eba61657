/// <reference path="../../app/extensionSource.d.ts" />
import type { SourceFile, SourceRegion } from 'virtual:extension-source';
import { loadExtensionSource, type ExtensionSource } from '../../app/extensionSource';

/**
 * The Code tab's data: the extension's source (`app/extensionSource.ts` loads it when the tab
 * first opens). Pure helpers cut a file into the lines and pieces the view draws.
 */
export type { SourceFile, SourceRegion };
export { loadExtensionSource, type ExtensionSource };

/** Every named region in the shown source, in file order (tests check the lessons' pointers against it). */
export async function regionNames(): Promise<string[]> {
  return (await loadExtensionSource()).regions.map((region) => region.name);
}

/** Where a lesson step sends the Code tab: a region by name. A new object each time, so the same region can be asked for twice. */
export interface CodeTarget {
  readonly region: string;
}

/** A run of one colour: class -1 is plain text. */
export interface Piece {
  readonly cls: number;
  readonly text: string;
}

export interface Line {
  /** 1-based. */
  readonly number: number;
  readonly pieces: readonly Piece[];
}

/** The file's lines as coloured pieces; the empty line after a final newline is not drawn. */
export function linesOf(file: SourceFile): Line[] {
  const texts = file.text.split('\n');
  if (texts.length > 1 && texts[texts.length - 1] === '') texts.pop();
  return texts.map((text, index) => {
    const flat = file.lines[index] ?? [];
    const pieces: Piece[] = [];
    let at = 0;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const cls = flat[i] ?? -1;
      const length = flat[i + 1] ?? 0;
      pieces.push({ cls, text: text.slice(at, at + length) });
      at += length;
    }
    // Whatever the tokens did not cover (none should be left) is still shown.
    if (at < text.length) pieces.push({ cls: -1, text: text.slice(at) });
    return { number: index + 1, pieces };
  });
}

/** The text the pieces spell, lines joined with `\n`: the file's text, less the final newline. */
export function textOf(lines: readonly Line[]): string {
  return lines.map((line) => line.pieces.map((piece) => piece.text).join('')).join('\n');
}

/** The file's lines cut around one region, so the view can wrap the region's lines in one outlined box. */
export interface Block {
  readonly region: SourceRegion | null;
  readonly lines: readonly Line[];
}

export function blocksOf(lines: readonly Line[], region: SourceRegion | null): Block[] {
  if (!region) return [{ region: null, lines }];
  const before = lines.filter((line) => line.number < region.start);
  const inside = lines.filter((line) => line.number >= region.start && line.number <= region.end);
  const after = lines.filter((line) => line.number > region.end);
  return [
    { region: null, lines: before },
    { region, lines: inside },
    { region: null, lines: after },
  ].filter((block) => block.lines.length > 0);
}

export function findRegion(regions: readonly SourceRegion[], name: string): SourceRegion | null {
  return regions.find((region) => region.name === name) ?? null;
}

/** "Region re-read-after-dialog, lines 56–61: the dialog was an await; …": the outlined box's accessible name. */
export function describeRegion(region: SourceRegion): string {
  const lines = region.start === region.end ? `line ${region.start}` : `lines ${region.start}–${region.end}`;
  return `Region ${region.name}, ${lines}${region.description ? `: ${region.description}` : ''}`;
}
