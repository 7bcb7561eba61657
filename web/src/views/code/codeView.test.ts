import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, regions } from 'virtual:extension-source';
import { backgroundsFor, buildExtensionSource, CODE_BACKGROUNDS, codeFiles, contrast, extractRegions, MIN_CONTRAST, paletteCss } from '../../../../scripts/code-view-plugin.mjs';
import { blocksOf, describeRegion, findRegion, linesOf, regionNames, textOf } from './codeView';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const onDisk = (path: string) => readFileSync(join(root, path), 'utf8');

/** The regions the lessons talk about (docs/decisions.md, the Code tab). */
const LESSON_REGIONS = ['re-read-after-dialog', 'read-desk-branch', 'single-append', 'tool-approval', 'refusals-as-values', 'grant-check', 'validate-every-snapshot', 'op-fields'];

describe('region extraction', () => {
  it('finds each region with its description and the lines of both markers', () => {
    const text = ['const a = 1;', '  // #region first-one: what it shows', '  a();', '  // #endregion', '// #region bare', '// #region inner-one: nested', 'b();', '// #endregion', '// #endregion', ''].join('\n');
    expect(extractRegions('x.ts', text)).toEqual([
      { name: 'first-one', description: 'what it shows', file: 'x.ts', start: 2, end: 4 },
      { name: 'bare', description: '', file: 'x.ts', start: 5, end: 9 },
      { name: 'inner-one', description: 'nested', file: 'x.ts', start: 6, end: 8 },
    ]);
  });

  it('refuses a region never closed, an #endregion without a region, and a region without a name', () => {
    expect(() => extractRegions('x.ts', '// #region open: never closed\nx();\n')).toThrow(/x\.ts:1: #region open is never closed/);
    expect(() => extractRegions('x.ts', 'x();\n// #endregion\n')).toThrow(/x\.ts:2: #endregion without a #region/);
    expect(() => extractRegions('x.ts', '// #region\n// #endregion\n')).toThrow(/needs a name/);
  });

  it('ignores "#region" outside a line comment', () => {
    expect(extractRegions('x.ts', "const s = '// #region not-one';\n")).toEqual([]);
  });
});

describe('the shipped source (virtual:extension-source)', () => {
  // Highlighting again here, as the build does, takes a second or more on a busy machine: once per file.
  let built: Awaited<ReturnType<typeof buildExtensionSource>>;
  beforeAll(async () => {
    built = await buildExtensionSource(root);
  }, 60_000);

  it('is every extension/*.ts file but tests, then the domain files the lessons talk about', () => {
    const extension = readdirSync(join(root, 'extension'))
      .filter((name) => name.endsWith('.ts') && !/\.(test|testkit|d)\.ts$/.test(name))
      .map((name) => `extension/${name}`);
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(codeFiles(root));
    expect([...paths].sort()).toEqual([...new Set(paths)].sort());
    for (const path of extension) expect(paths).toContain(path);
    for (const path of ['domain/desk.ts', 'domain/reconstruct.ts', 'domain/command/parse.ts', 'domain/tool/seedDeskTool.ts', 'domain/snapshot.ts', 'domain/refusal.ts']) expect(paths).toContain(path);
    expect(paths.some((path) => path.includes('.test.'))).toBe(false);
  });

  it('carries each file exactly as it is on disk, and its tokens spell that text', () => {
    for (const file of files) {
      const text = onDisk(file.path);
      expect(file.text, file.path).toBe(text);
      const lines = text.split('\n');
      expect(file.lines.length, file.path).toBe(lines.length);
      file.lines.forEach((tokens, index) => {
        expect(tokens.length % 2, `${file.path}:${index + 1}`).toBe(0);
        const length = tokens.filter((_, at) => at % 2 === 1).reduce((sum, value) => sum + value, 0);
        expect(length, `${file.path}:${index + 1}`).toBe(lines[index]?.length);
      });
      // What the view draws, joined back: the file less its final newline.
      expect(textOf(linesOf(file)), file.path).toBe(text.endsWith('\n') ? text.slice(0, -1) : text);
    }
  });

  it('colours code: some tokens carry a class, and every class has a rule', () => {
    // The tokens and the CSS of one build (two builds on a loaded machine have numbered a colour differently).
    const used = new Set(built.files.flatMap((file) => file.lines.flatMap((tokens) => tokens.filter((_, at) => at % 2 === 0))));
    expect([...used].filter((cls) => cls >= 0).length).toBeGreaterThan(3);
    for (const cls of used) if (cls >= 0) expect(built.css).toContain(`.code-view .tk${cls}{`);
    expect(paletteCss(built.palette)).toBe(built.css);
  });

  it('reads at 4.5:1 or better in both themes, on the code box, the panel and an outlined region', () => {
    for (const entry of built.palette) {
      for (const background of backgroundsFor('light')) expect(contrast(entry.light, background), `${entry.light} on ${background}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      for (const background of backgroundsFor('dark')) expect(contrast(entry.dark, background), `${entry.dark} on ${background}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('checks contrast against the page colours styles.css really uses', () => {
    const css = readFileSync(join(root, 'web/src/styles.css'), 'utf8');
    for (const [name, key] of [
      ['bg', 'bg'],
      ['panel', 'panel'],
      ['accent', 'accent'],
    ] as const) {
      const match = new RegExp(`--${name}: light-dark\\((#[0-9a-f]{6}), (#[0-9a-f]{6})\\)`, 'i').exec(css);
      expect(match, `--${name} in styles.css`).not.toBeNull();
      expect(match?.[1]?.toLowerCase(), `--${name} light`).toBe(CODE_BACKGROUNDS.light[key]);
      expect(match?.[2]?.toLowerCase(), `--${name} dark`).toBe(CODE_BACKGROUNDS.dark[key]);
    }
  });
});

describe('the shipped regions', () => {
  it('include every region the lessons talk about, each where its markers are', async () => {
    expect(await regionNames()).toEqual(regions.map((region) => region.name));
    for (const name of LESSON_REGIONS) expect(regions.map((region) => region.name)).toContain(name);
    for (const region of regions) {
      const lines = onDisk(region.file).split('\n');
      expect(lines[region.start - 1], region.name).toContain(`#region ${region.name}`);
      expect(lines[region.end - 1], region.name).toMatch(/\/\/\s*#endregion/);
      expect(region.end, region.name).toBeGreaterThan(region.start);
      expect(files.map((file) => file.path)).toContain(region.file);
    }
  });

  it('are what the plugin extracts from the files on disk', () => {
    expect(regions).toEqual(files.flatMap((file) => extractRegions(file.path, onDisk(file.path))));
  });

  it('have unique names', () => {
    const names = regions.map((region) => region.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('drawing a file', () => {
  it('cuts the lines around the outlined region, markers included', () => {
    const file = files.find((candidate) => candidate.path === 'extension/command.ts');
    const region = findRegion(regions, 're-read-after-dialog');
    expect(file).toBeDefined();
    expect(region).not.toBeNull();
    if (!file || !region) return;
    const lines = linesOf(file);
    const blocks = blocksOf(lines, region);
    const outlined = blocks.find((block) => block.region !== null);
    expect(outlined?.lines.map((line) => line.number)).toEqual(Array.from({ length: region.end - region.start + 1 }, (_, index) => region.start + index));
    expect(textOf(outlined?.lines ?? [])).toContain('const second = judge(readDesk(ctx));');
    expect(blocks.flatMap((block) => block.lines)).toEqual(lines);
    expect(blocksOf(lines, null)).toEqual([{ region: null, lines }]);
    expect(describeRegion(region)).toBe(`Region re-read-after-dialog, lines ${region.start}–${region.end}: the dialog was an await; judge the branch as it is now`);
  });

  it('knows no region by a name that is not there', () => {
    expect(findRegion(regions, 'no-such-region')).toBeNull();
  });
});
