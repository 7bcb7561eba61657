/**
 * docs/lessons.md, the claims of the stage-3 lesson against what checks them: every reference in
 * its tables must name something that exists (a step of that lesson, an e2e test title, a demo
 * step, a host-test check, a lesson step the real-OMP replay runs), claim ids are unique, and the
 * totals at the top are the rows' own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../scripts/lessons.mjs';
import { lessonScripts } from '../host-test/lessonScripts';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const DOC = readFileSync(root('docs/lessons.md'), 'utf8');

type Mark = 'Y' | 'P' | 'N';
const COLUMNS = ['step', 'e2e', 'real'] as const;
type Column = (typeof COLUMNS)[number];

interface Cell {
  readonly mark: Mark;
  readonly refs: readonly string[];
  readonly reason: string;
}

interface Claim {
  readonly id: string;
  readonly text: string;
  readonly cells: Readonly<Record<Column, Cell>>;
  readonly line: number;
}

/** Splits a table row on the pipes that are not escaped (`\|` stays inside a cell). */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** `Y `ref`, `ref` — reason`: the mark, the backticked references before the dash, the reason after it. */
function parseCell(raw: string, where: string): Cell {
  const match = /^([YPN])\b(.*)$/s.exec(raw);
  if (!match) throw new Error(`${where}: a cell must start with Y, P or N: "${raw}"`);
  const [head, ...reason] = match[2]!.split(' — ');
  const refs = [...head!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const rest = head!.replace(/`[^`]+`/g, '').replace(/[,\s]/g, '');
  if (rest !== '') throw new Error(`${where}: text outside backticks before the reason: "${raw}"`);
  return { mark: match[1] as Mark, refs, reason: reason.join(' — ').trim() };
}

function parseClaims(doc: string): Claim[] {
  const claims: Claim[] = [];
  doc.split('\n').forEach((line, index) => {
    if (!/^\| [A-Z]\d+ \|/.test(line)) return;
    const cells = cellsOf(line);
    const where = `docs/lessons.md:${index + 1}`;
    if (cells.length !== 5) throw new Error(`${where}: ${cells.length} cells, not 5`);
    const [id, text, step, e2e, real] = cells as [string, string, string, string, string];
    claims.push({
      id,
      text,
      line: index + 1,
      cells: { step: parseCell(step, `${where} step`), e2e: parseCell(e2e, `${where} e2e`), real: parseCell(real, `${where} real`) },
    });
  });
  return claims;
}

/** Literal first arguments of `call(` in the files (a title built with `${…}` is no literal). */
function literalTitles(files: readonly string[], call: RegExp): Set<string> {
  const titles = new Set<string>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const pattern = new RegExp(`${call.source}\\(\\s*(['"\`])((?:\\\\.|(?!\\1).)*)\\1`, 'g');
    for (const match of source.matchAll(pattern)) {
      const title = match[2]!.replace(/\\(.)/g, '$1');
      if (!title.includes('${')) titles.add(title);
    }
  }
  return titles;
}

const filesIn = (dir: string, recursive: boolean): string[] =>
  readdirSync(root(dir), { recursive, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules') && !entry.parentPath.includes('/.omp'))
    .map((entry) => `${entry.parentPath}/${entry.name}`);

const E2E_TITLES = literalTitles(filesIn('e2e', false).filter((file) => file.endsWith('.spec.ts')), /\btest/);
const HOST_CHECKS = literalTitles(filesIn('host-test', true), /checks\.run/);
const STEPS = new Map(LESSONS.map((lesson) => [lesson.id, new Set(lesson.steps.map((step) => step.id))]));
/** The lesson steps the real-OMP replay runs: those whose actions reach the host. */
const REPLAYED = new Set((await lessonScripts()).flatMap((script) => (script.labels ?? []).filter((label) => label !== 'setup').map((label) => `${script.name.replace(/^lesson-/, '')}/${label}`)));

/** Why a reference does not resolve, or null when it does. */
function unresolved(column: Column, ref: string): string | null {
  const step = (id: string) => {
    const [lesson, stepId, extra] = id.split('/');
    if (extra !== undefined || !lesson || !stepId) return `"${id}" is not lesson-id/step-id`;
    if (!STEPS.has(lesson)) return `no lesson "${lesson}" under lessons/`;
    return STEPS.get(lesson)!.has(stepId) ? null : `no step "${stepId}" in lesson "${lesson}"`;
  };
  if (column === 'step') return step(ref);
  if (column === 'e2e') {
    if (ref.startsWith('demo: ')) return step(ref.slice('demo: '.length));
    return E2E_TITLES.has(ref) ? null : `no e2e test titled "${ref}" in e2e/*.spec.ts`;
  }
  if (ref.startsWith('replay: ')) {
    const id = ref.slice('replay: '.length);
    return step(id) ?? (REPLAYED.has(id) ? null : `"${id}" reaches no host: the real-OMP replay runs none of its actions`);
  }
  return HOST_CHECKS.has(ref) ? null : `no check named "${ref}" in host-test/`;
}

const CLAIMS = parseClaims(DOC);

describe('docs/lessons.md: the claims and what checks them', () => {
  it('finds the e2e titles, the host-test checks and the replayed steps it resolves against', () => {
    expect(E2E_TITLES.size).toBeGreaterThan(50);
    expect(HOST_CHECKS.size).toBeGreaterThan(10);
    expect(REPLAYED.size).toBeGreaterThan(30);
    expect(CLAIMS.length).toBeGreaterThan(100);
  });

  it('resolves every reference: steps, e2e titles, demos, host checks and replays', () => {
    const problems = CLAIMS.flatMap((claim) =>
      COLUMNS.flatMap((column) => claim.cells[column].refs.map((ref) => unresolved(column, ref)).filter((why) => why !== null).map((why) => `${claim.id} ${column}: ${why}`)),
    );
    expect(problems).toEqual([]);
  });

  it('gives a Y at least one reference, an N none, and every P or N of the step and real-OMP columns a reason', () => {
    const problems: string[] = [];
    for (const claim of CLAIMS) {
      for (const column of COLUMNS) {
        const cell = claim.cells[column];
        if (cell.mark === 'Y' && cell.refs.length === 0) problems.push(`${claim.id} ${column}: Y without a reference`);
        if (cell.mark === 'N' && cell.refs.length > 0) problems.push(`${claim.id} ${column}: N with a reference`);
        if (column !== 'e2e' && cell.mark !== 'Y' && cell.reason === '') problems.push(`${claim.id} ${column}: ${cell.mark} without a reason`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('repeats no claim id and no claim', () => {
    const ids = CLAIMS.map((claim) => claim.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const texts = CLAIMS.map((claim) => claim.text.toLowerCase());
    expect(texts.filter((text, index) => texts.indexOf(text) !== index)).toEqual([]);
  });

  it('states totals at the top that equal the rows', () => {
    const totals = /\*\*Totals: (\d+) claims\.\*\* Step: Y (\d+) \/ P (\d+) \/ N (\d+)\. E2e or demo: Y (\d+) \/ P (\d+) \/ N (\d+)\. Real OMP: Y (\d+) \/ P (\d+) \/ N (\d+)\./.exec(DOC);
    expect(totals, 'the totals line').not.toBeNull();
    const count = (column: Column, mark: Mark) => CLAIMS.filter((claim) => claim.cells[column].mark === mark).length;
    expect(totals!.slice(1).map(Number)).toEqual([
      CLAIMS.length,
      ...COLUMNS.flatMap((column) => (['Y', 'P', 'N'] as const).map((mark) => count(column, mark))),
    ]);
  });

  it('quotes at most five words at a time in a claim', () => {
    const long = CLAIMS.flatMap((claim) =>
      [...claim.text.replace(/`[^`]*`/g, '').matchAll(/["“]([^"”]+)["”]/g)].filter((m) => m[1]!.trim().split(/\s+/).length > 5).map((m) => `${claim.id}: "${m[1]}"`),
    );
    expect(long).toEqual([]);
  });

  it('maps every step of "Break it" to the claims whose guard it breaks', () => {
    const section = /^## "Break it".*?(?=^## )/ms.exec(DOC)?.[0] ?? '';
    const mapped = new Set([...section.matchAll(/`break-it\/([a-z-]+)`/g)].map((m) => m[1]!));
    expect([...mapped].filter((id) => !STEPS.get('break-it')?.has(id))).toEqual([]);
    expect([...(STEPS.get('break-it') ?? [])].filter((id) => !mapped.has(id))).toEqual([]);
    const ids = new Set(CLAIMS.map((claim) => claim.id));
    const named = [...section.matchAll(/\| ([A-Z]\d+(?:, [A-Z]\d+)*) \|$/gm)].flatMap((m) => m[1]!.split(', '));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });
});
