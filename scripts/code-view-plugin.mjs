// The Code tab's source: the Seed Desk extension and the domain files it calls, highlighted at
// build time. A Vite plugin serves them as the virtual module `virtual:extension-source` (with its
// colours in `virtual:extension-source.css`), which the Code tab imports with `import()`: neither
// the highlighter nor the text reaches the page's first screen, and Shiki never reaches the page.
//
// Tokens are data, not HTML: each line is a flat list of [colour class, length] pairs over the
// file's own text, so the page builds its elements itself (no {@html}) and the text it shows is the
// file's text exactly. A colour class is one `light-dark()` pair: light and dark themes follow the
// page's `color-scheme`, like the rest of styles.css.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const VIRTUAL_ID = 'virtual:extension-source';
export const VIRTUAL_CSS_ID = 'virtual:extension-source.css';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const RESOLVED_CSS_ID = `\0${VIRTUAL_CSS_ID}`;

/** The domain files the extension calls that the lessons talk about, after every `extension/*.ts`. */
export const DOMAIN_FILES = [
  'domain/desk.ts',
  'domain/reconstruct.ts',
  'domain/snapshot.ts',
  'domain/refusal.ts',
  'domain/command/parse.ts',
  'domain/tool/seedDeskTool.ts',
  'domain/tool/opFields.ts',
];

/** One light and one dark theme (Shiki's names). */
export const THEMES = { light: 'github-light', dark: 'github-dark-default' };

/**
 * What code is read on in each theme (styles.css): the page background (`--bg`, the code box),
 * the panel (`--panel`), and the outlined region's tint (`--accent` mixed into `--bg`, the same
 * `color-mix()` the Code view's CSS uses). The themes were made for their own backgrounds, so
 * every colour is darkened (light) or lightened (dark) just enough to read at 4.5:1 on all three.
 */
export const CODE_BACKGROUNDS = {
  light: { bg: '#fbfaf7', panel: '#ffffff', accent: '#2a6134' },
  dark: { bg: '#151714', panel: '#1d201b', accent: '#8fd19e' },
};
export const REGION_TINT = 0.1;
export const MIN_CONTRAST = 4.5;

/** A token in the theme's plain foreground carries no class: it takes the page's own text colour. */
export const PLAIN = -1;

/** Every file shown: `extension/*.ts` (not tests, not declarations), sorted, then the domain files. */
export function codeFiles(root = ROOT) {
  const extension = readdirSync(join(root, 'extension'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(test|testkit|d)\.ts$/.test(entry.name))
    .map((entry) => `extension/${entry.name}`)
    .sort();
  return [...extension, ...DOMAIN_FILES];
}

const REGION_START = /^\s*\/\/\s*#region\s+([a-z0-9][a-z0-9-]*)\s*(?::\s*(.*?))?\s*$/;
const REGION_END = /^\s*\/\/\s*#endregion\b/;

/**
 * The named regions of one file: `// #region <name>: <description>` … `// #endregion`, with the
 * 1-based lines of both markers (the region shows with them). Regions may nest. A marker without
 * its pair, or a `#region` without a name, is an error: a region the lessons point at must exist.
 */
export function extractRegions(file, text) {
  const regions = [];
  const open = [];
  text.split('\n').forEach((line, index) => {
    const number = index + 1;
    if (REGION_END.test(line)) {
      const region = open.pop();
      if (!region) throw new Error(`${file}:${number}: #endregion without a #region`);
      regions.push({ ...region, end: number });
      return;
    }
    if (/^\s*\/\/\s*#region\b/.test(line)) {
      const match = REGION_START.exec(line);
      if (!match?.[1]) throw new Error(`${file}:${number}: a #region needs a name (// #region name: description)`);
      open.push({ name: match[1], description: match[2] ?? '', file, start: number });
    }
  });
  const unclosed = open.pop();
  if (unclosed) throw new Error(`${file}:${unclosed.start}: #region ${unclosed.name} is never closed`);
  return regions.sort((a, b) => a.start - b.start);
}

const channels = (hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
const toHex = (rgb) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;
/** `color-mix(in srgb, a share, b)`. */
export const mix = (a, b, share) => toHex(channels(a).map((value, index) => value * share + (channels(b)[index] ?? 0) * (1 - share)));
const luminance = (hex) => {
  const [r = 0, g = 0, b = 0] = channels(hex).map((value) => value / 255).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrast(a, b) {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}
/** The backgrounds code is read on in one theme. */
export function backgroundsFor(scheme) {
  const { bg, panel, accent } = CODE_BACKGROUNDS[scheme];
  return [bg, panel, mix(accent, bg, REGION_TINT)];
}
/** The colour, moved toward black (light theme) or white (dark theme) until it reads at MIN_CONTRAST on every background. */
export function readable(hex, scheme) {
  const color = hex.slice(0, 7).toLowerCase();
  const toward = scheme === 'light' ? '#000000' : '#ffffff';
  const backgrounds = backgroundsFor(scheme);
  for (let step = 0; step <= 50; step += 1) {
    const candidate = mix(toward, color, step / 50);
    if (backgrounds.every((background) => contrast(candidate, background) >= MIN_CONTRAST)) return candidate;
  }
  return toward;
}

let highlighter;
/** Shiki's core with one grammar and two themes, on its JavaScript regex engine (no WebAssembly). */
function getHighlighter() {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([import('shiki/core'), import('shiki/engine/javascript')]);
    return createHighlighterCore({
      themes: [import(`shiki/themes/${THEMES.light}.mjs`), import(`shiki/themes/${THEMES.dark}.mjs`)],
      langs: [import('shiki/langs/typescript.mjs')],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  return highlighter;
}

const FONT_STYLES = [
  [1, 'font-style:italic'],
  [2, 'font-weight:600'],
  [4, 'text-decoration:underline'],
];

/**
 * Reads and highlights every file. Returns the files (path, text, and per line its
 * [class, length, class, length, …] tokens, adjacent tokens of one class merged), the regions of
 * all files, the palette (class i ↔ its light and dark colour) and the CSS for it.
 */
export async function buildExtensionSource(root = ROOT) {
  const shiki = await getHighlighter();
  const plain = { light: shiki.getTheme(THEMES.light).fg.slice(0, 7).toLowerCase(), dark: shiki.getTheme(THEMES.dark).fg.slice(0, 7).toLowerCase() };
  const palette = [];
  const classes = new Map();
  const classOf = (variants) => {
    const light = (variants.light?.color ?? plain.light).slice(0, 7).toLowerCase();
    const dark = (variants.dark?.color ?? plain.dark).slice(0, 7).toLowerCase();
    // Only a style both themes agree on: light-dark() chooses colours, not font styles.
    const fontStyle = (variants.light?.fontStyle ?? 0) > 0 && variants.light?.fontStyle === variants.dark?.fontStyle ? variants.light.fontStyle : 0;
    if (light === plain.light && dark === plain.dark && fontStyle === 0) return PLAIN;
    const key = `${light} ${dark} ${fontStyle}`;
    let index = classes.get(key);
    if (index === undefined) {
      index = palette.length;
      classes.set(key, index);
      palette.push({ light: readable(light, 'light'), dark: readable(dark, 'dark'), fontStyle });
    }
    return index;
  };

  const files = [];
  const regions = [];
  for (const path of codeFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    const sourceLines = text.split('\n');
    const tokens = shiki.codeToTokensWithThemes(text, { lang: 'typescript', themes: THEMES });
    if (tokens.length !== sourceLines.length) throw new Error(`${path}: ${tokens.length} highlighted lines for ${sourceLines.length} lines (CRLF line ends?)`);
    const lines = tokens.map((line, index) => {
      const flat = [];
      for (const token of line) {
        if (token.content.length === 0) continue;
        const cls = classOf(token.variants);
        if (flat.length > 0 && flat[flat.length - 2] === cls) flat[flat.length - 1] += token.content.length;
        else flat.push(cls, token.content.length);
      }
      const joined = line.map((token) => token.content).join('');
      if (joined !== sourceLines[index]) throw new Error(`${path}:${index + 1}: the highlighted line differs from the file's`);
      return flat;
    });
    files.push({ path, text, lines });
    regions.push(...extractRegions(path, text));
  }
  const names = new Set();
  for (const region of regions) {
    if (names.has(region.name)) throw new Error(`${region.file}:${region.start}: a second region named ${region.name}`);
    names.add(region.name);
  }
  return { files, regions, palette, css: paletteCss(palette) };
}

/** One rule per colour class: `.tk3` in the Code view. */
export function paletteCss(palette) {
  return palette
    .map(({ light, dark, fontStyle }, index) => {
      const styles = [`color:light-dark(${light},${dark})`, ...FONT_STYLES.filter(([bit]) => (fontStyle & bit) !== 0).map(([, style]) => style)];
      return `.code-view .tk${index}{${styles.join(';')}}`;
    })
    .join('\n');
}

/** Vite plugin: `virtual:extension-source` (files and regions as data) and its CSS. */
export function codeViewPlugin() {
  let source;
  const load = () => (source ??= buildExtensionSource());
  return {
    name: 'seed-desk-code-view',
    resolveId(id) {
      if (id === VIRTUAL_ID) return RESOLVED_ID;
      if (id === VIRTUAL_CSS_ID) return RESOLVED_CSS_ID;
      return null;
    },
    async load(id) {
      if (id !== RESOLVED_ID && id !== RESOLVED_CSS_ID) return null;
      const built = await load();
      for (const file of built.files) this.addWatchFile(join(ROOT, file.path));
      if (id === RESOLVED_CSS_ID) return built.css;
      return [
        `import ${JSON.stringify(VIRTUAL_CSS_ID)};`,
        `export const files = ${JSON.stringify(built.files.map(({ path, text, lines }) => ({ path, text, lines })))};`,
        `export const regions = ${JSON.stringify(built.regions)};`,
      ].join('\n');
    },
    // A shown file changed: highlight again and reload the module (the dev server only).
    watchChange(id) {
      if (source && codeFiles().some((path) => join(ROOT, path) === id)) source = undefined;
    },
    handleHotUpdate({ file, server, modules }) {
      if (!codeFiles().some((path) => join(ROOT, path) === file)) return;
      source = undefined;
      const virtual = [RESOLVED_ID, RESOLVED_CSS_ID].map((id) => server.moduleGraph.getModuleById(id)).filter((module) => module !== undefined);
      for (const module of virtual) server.moduleGraph.invalidateModule(module);
      return [...modules, ...virtual];
    },
  };
}
