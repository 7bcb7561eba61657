/**
 * Every repository path written in backticks in the project's own texts must exist: `docs/*.md`,
 * every `CONTEXT.md`, `README.md` and `lessons/README.md`.
 *
 * The rule, applied to each inline code span (fenced code blocks are examples, not read):
 *
 * 1. Not a path at all:
 *    - text with a space or with code punctuation (`(`, `=`, `'`, `"`, `,`, `;`, `|`): code, a
 *      command, an expression;
 *    - a URL or a module id with a scheme (`https://…`, `virtual:lesson/<id>`, `blob:`);
 *    - an absolute or home path (`/seeds`, `/seed-desk/`, `/usr/bin/chromium`, `~/.omp`): a
 *      command, an address on the served page or a path on the machine, never a repository file;
 *    - a page address in the hash (`#/lesson/<n>/step/<m>`) or an environment variable (`$X`);
 *    - a glob or a placeholder (`*`, `?`, `[`, `{`, `<…>`, `…`): a pattern, not one file;
 *    - a lone `.word` (`.ts`, `.packets`): an extension or a property;
 *    - an npm package or a file inside one (`@scope/pkg`, `zod/mini`, `shiki/core`): the first
 *      part starts with `@`, or names a package in `node_modules/` and no folder of the repository;
 *    - a file the text itself places elsewhere: the span is followed by "(not in this repository"
 *      (the source lesson `docs/lessons.md` cites).
 * 2. A path: what is left that ends in a source extension (EXTENSIONS) or holds a `/`. Two kinds
 *    of the latter are names, not paths, and are skipped: a `/`-name without an extension whose
 *    first part is no folder anywhere in the repository (`meta/lastSession`, an IndexedDB key;
 *    `human-reservation/race-refused`, a lesson step). `.js` is not a source extension here: the
 *    sources are TypeScript and `.mjs`, so a `.js` name is a bundle the build writes or a download
 *    (`seed-desk.js`).
 * 3. Where it is looked for, first hit wins:
 *    - a name without a folder (`fixture.ts`): the root, the markdown file's folder, or any file
 *      of that name in the repository (a text names a file by its name where the folder is clear);
 *    - with a folder: from the root; from the markdown file's folder (`src/worker/…` in
 *      `web/CONTEXT.md`); then as a shorthand after a path named earlier in the same paragraph,
 *      list item or table row, read from that path or one of its folders (`omp/runPolicy.ts`
 *      after `src/worker/omp/extensionRuntime.ts`);
 *    - a `/`-path without an extension may leave it out, as an import does (`domain/desk`);
 *    - a trailing `:line` or `:line:column` is dropped (`lessons/…/04-race-refused.md:30`);
 *    - a `../` path is read from the markdown file's folder; read from the root it names something
 *      beside the repository (`../outside`) and is not checked.
 * 4. A path that `.gitignore` ignores (`dist/`, `extension/dist/seed-desk.js`, `host-test/out/`) is
 *    what a command writes, not a stored file: not checked. Any other path that is found nowhere
 *    fails the test, with the file and line that names it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The extensions of the repository's own files that a text names. */
const EXTENSIONS = ['ts', 'mts', 'mjs', 'svelte', 'json', 'jsonl', 'md', 'html', 'css', 'webmanifest', 'svg', 'png', 'yaml', 'yml'];
const HAS_EXTENSION = new RegExp(`\\.(${EXTENSIONS.join('|')})$`);

/** `.gitignore`'s patterns as a test of a repository-relative path (a folder pattern covers what lies below it). */
function ignoredBy(gitignore: string): (path: string) => boolean {
  const patterns = gitignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
    .map((line) => {
      const body = line.replace(/\/$/, '');
      const anchored = body.includes('/');
      const glob = body
        .replace(/^\//, '')
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*');
      return new RegExp(`${anchored ? '^' : '(^|/)'}${glob}$`);
    });
  return (path) => {
    const parts = path.split('/').filter((part) => part !== '');
    return parts.some((_, index) => patterns.some((pattern) => pattern.test(parts.slice(0, index + 1).join('/'))));
  };
}

const isIgnored = ignoredBy(readFileSync(join(ROOT, '.gitignore'), 'utf8'));

/** Every file and folder of the repository, relative to the root, without `.git` and what `.gitignore` ignores. */
function walk(): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.name === '.git' || isIgnored(path)) continue;
      if (entry.isDirectory()) {
        folders.push(path);
        visit(path);
      } else files.push(path);
    }
  };
  visit('');
  return { files, folders };
}

const TREE = walk();
const FILE_NAMES = new Set(TREE.files.map((path) => basename(path)));
const FOLDER_NAMES = new Set(TREE.folders.map((path) => basename(path)));

/** The texts whose backticked paths must exist. */
const TEXTS = [
  ...TREE.files.filter((path) => /^docs\/[^/]+\.md$/.test(path)),
  ...TREE.files.filter((path) => basename(path) === 'CONTEXT.md'),
  'README.md',
  'lessons/README.md',
].sort();

/** Why a backticked token in a markdown file in folder `from` is not a repository path, or null when it is one. */
function notAPath(token: string, from: string): string | null {
  if (/[\s(),;='"|]/.test(token)) return 'code or a command';
  if (/^[a-z][a-z0-9+.-]*:/i.test(token)) return 'a URL or a module id with a scheme';
  if (/^[/~]/.test(token)) return 'an absolute path: a command, a page address or a path on the machine';
  if (/^[#$]/.test(token)) return 'a page address or an environment variable';
  if (/[*?[\]{}<>…]/.test(token)) return 'a glob or a placeholder';
  const first = token.split('/')[0]!;
  if (token.includes('/') && first.startsWith('@')) return 'an npm package';
  if (token.includes('/') && !/^\.\.?$/.test(first) && !existsSync(join(ROOT, first)) && existsSync(join(ROOT, 'node_modules', first, 'package.json'))) {
    return 'an npm package';
  }
  if (/^\.[a-z0-9]+$/i.test(token)) return 'an extension or a property (`.ts`, `.packets`)';
  if (HAS_EXTENSION.test(token)) return null;
  if (!token.includes('/')) return 'a name without a folder or a source extension';
  if (!/^\.\.?$/.test(first) && !existsSync(join(ROOT, first)) && !FOLDER_NAMES.has(first) && !FILE_NAMES.has(first) && !isIgnored(first) && !isIgnored(posix.join(from, first))) {
    return 'a name whose first part is no folder of the repository';
  }
  return null;
}

type Found = 'found' | 'ignored' | 'outside' | 'missing';

/** Looks a path up as the rule says; `from` is the markdown file's folder, `earlier` the paths found before it in its paragraph. */
function lookUp(token: string, from: string, earlier: readonly string[]): { found: Found; at?: string } {
  const path = token.replace(/\/$/, '');
  const bare = !token.includes('/');
  const candidates: string[] = [];
  const inRepo = (absolute: string) => {
    const rel = relative(ROOT, absolute).split(sep).join('/');
    return rel.startsWith('..') ? null : rel;
  };
  if (bare) {
    candidates.push(path, posix.join(from, path));
    const anywhere = TREE.files.find((file) => basename(file) === path);
    if (anywhere) candidates.push(anywhere);
  } else if (path.startsWith('../')) {
    candidates.push(posix.join(from, path));
    if (inRepo(join(ROOT, path)) === null && !existsSync(join(ROOT, posix.join(from, path)))) return { found: 'outside' };
  } else {
    candidates.push(path, posix.join(from, path));
    for (const before of earlier) {
      for (let folder = before; folder !== '.' && folder !== ''; folder = posix.dirname(folder)) candidates.push(posix.join(folder, path));
    }
  }
  const variants = (candidate: string) => (HAS_EXTENSION.test(candidate) || bare ? [candidate] : [candidate, ...EXTENSIONS.map((ext) => `${candidate}.${ext}`)]);
  for (const candidate of candidates) {
    const rel = inRepo(join(ROOT, candidate));
    if (rel === null) continue;
    for (const variant of variants(rel)) {
      if (isIgnored(variant)) return { found: 'ignored', at: variant };
      if (existsSync(join(ROOT, variant))) return { found: 'found', at: variant };
    }
  }
  return { found: 'missing' };
}

/** Paragraphs (a list item and a table row count as one each) with their first line; fenced blocks are left out. */
function paragraphs(markdown: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  let current: { line: number; lines: string[] } | null = null;
  let fenced = false;
  const close = () => {
    if (current) blocks.push({ line: current.line, text: current.lines.join(' ') });
    current = null;
  };
  markdown.split('\n').forEach((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      close();
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (raw.trim() === '') return close();
    const startsBlock = /^\s*([-*+] |\d+\. |\||#)/.test(raw);
    if (startsBlock || current === null) {
      close();
      current = { line: index + 1, lines: [raw] };
    } else current.lines.push(raw);
    if (/^\s*(\||#)/.test(raw)) close();
  });
  close();
  return blocks;
}

interface PathProblem {
  readonly where: string;
  readonly path: string;
}

/** Every backticked repository path in `markdown` (the text of `file`) that does not exist, and how many paths it checked. */
function missingPaths(file: string, markdown: string): { checked: string[]; missing: PathProblem[] } {
  const from = posix.dirname(file);
  const checked: string[] = [];
  const missing: PathProblem[] = [];
  for (const block of paragraphs(markdown)) {
    const earlier: string[] = [];
    for (const match of block.text.matchAll(/`([^`\n]+)`/g)) {
      const token = match[1]!.trim().replace(/(?<=\.[a-z]+):\d+(:\d+)?$/, '');
      if (notAPath(token, from) !== null) continue;
      if (block.text.startsWith(' (not in this repository', match.index + match[0].length)) continue;
      const { found, at } = lookUp(token, from, earlier);
      checked.push(token);
      if (found === 'missing') missing.push({ where: `${file}:${block.line}`, path: token });
      if (found === 'found' && at) earlier.push(at);
    }
  }
  return { checked, missing };
}

describe('backticked repository paths in the docs, the CONTEXT files and the READMEs', () => {
  it('reads every text the rule covers', () => {
    expect(TEXTS).toEqual(expect.arrayContaining(['README.md', 'lessons/README.md', 'docs/design.md', 'docs/decisions.md', 'web/CONTEXT.md', 'e2e/demos/CONTEXT.md']));
    const checked = TEXTS.flatMap((file) => missingPaths(file, readFileSync(join(ROOT, file), 'utf8')).checked);
    expect(checked.length).toBeGreaterThan(150);
  });

  it('finds every path a text names', () => {
    const problems = TEXTS.flatMap((file) => missingPaths(file, readFileSync(join(ROOT, file), 'utf8')).missing).map(({ where, path }) => `${where}: \`${path}\` does not exist`);
    expect(problems).toEqual([]);
  });

  it('reports a path that does not exist, and only what is a path (the rule on made-up lines)', () => {
    const text = [
      'The schema is `web/src/lessons/schema.ts` and the layout `LowerPanels.svelte`; `domain/desk.ts` and `fixture.ts` exist.',
      '',
      '- `src/worker/omp/extensionRuntime.ts` + `omp/runPolicy.ts`, then `omp/nothing.ts`; `domain/desk` as an import.',
      '',
      '| `src/views/` | `../lessons/` | `../outside` | `dist/` | `extension/dist/seed-desk.js` | `seed-desk.js` |',
      '',
      'Not paths: `virtual:lesson/<id>`, `https://example.org/a.ts`, `/seeds`, `/usr/bin/chromium`, `#/lesson/1/step/2`,',
      '`e2e/*.spec.ts`, `<base>sw.js`, `zod/mini`, `@oh-my-pi/pi-coding-agent/src/x.ts`, `meta/lastSession`,',
      '`human-reservation/race-refused`, `npm run build -- --base=/seed-desk/`, `$CHROMIUM_PATH`,',
      '`stage3.md` (not in this repository), `lessons/01-human-reservation/04-race-refused.md:30`.',
      '',
      '```text',
      'web/src/also-not-read.ts',
      '```',
    ].join('\n');
    const { checked, missing } = missingPaths('web/CONTEXT.md', text);
    expect(missing).toEqual([
      { where: 'web/CONTEXT.md:1', path: 'web/src/lessons/schema.ts' },
      { where: 'web/CONTEXT.md:1', path: 'LowerPanels.svelte' },
      { where: 'web/CONTEXT.md:3', path: 'omp/nothing.ts' },
    ]);
    expect(checked).toEqual([
      'web/src/lessons/schema.ts',
      'LowerPanels.svelte',
      'domain/desk.ts',
      'fixture.ts',
      'src/worker/omp/extensionRuntime.ts',
      'omp/runPolicy.ts',
      'omp/nothing.ts',
      'domain/desk',
      'src/views/',
      '../lessons/',
      '../outside',
      'dist/',
      'extension/dist/seed-desk.js',
      'lessons/01-human-reservation/04-race-refused.md',
    ]);
  });
});
