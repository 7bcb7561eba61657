/**
 * Where the page's host differs from the real OMP on purpose, step by step. Each difference is
 * declared once here, and only for a lesson step whose own text says so ("in this page" and what
 * the real OMP did). A declared step is not a pass: it carries an assertion about what OMP 18.2.3
 * did there (`assertReal`), run on the real host's traces every run, and the run fails when that
 * assertion is missing, reads nothing of the real host, names no fact, or finds OMP doing otherwise
 * (declaredKit.ts). The comparison accepts a difference only at a declared step and fails when a
 * declared step no longer differs (so this list stays true).
 */
import { LESSONS } from '../scripts/lessons.mjs';
import { expect, reserved, same, type DeclaredEvidence } from './declaredKit';

export type { DeclaredEvidence } from './declaredKit';

export interface Declared {
  /** The differential script (`lesson-<id>`) and the lesson step the difference belongs to. */
  readonly script: string;
  readonly step: string;
  /** What the real OMP does there, as `npm run test:host` measured it. */
  readonly real: string;
  /** Also replay the script with its session on one file from the start (`oneFile` in the evidence). */
  readonly oneFile?: boolean;
  /** What OMP 18.2.3 did at this step, asserted on its traces: the facts checked (throws when OMP did otherwise). */
  readonly assertReal: (evidence: DeclaredEvidence) => readonly string[];
}

const BEAN = 'bean-scarlet';
const MARIGOLD = 'marigold-french';

export const DECLARED: readonly Declared[] = [
  {
    script: 'lesson-persistence-limits',
    step: 'storage-failure-latch',
    real: 'a failed write of the session file does not stop the extension: appendEntry does not throw, the change stays in memory, the host latches and logs the failure and tells its observers once; the next append rewrites the whole file, which clears the latch and keeps both changes; the page refuses writes until a reopen',
    assertReal: ({ real }) => {
      const [fault, first, second, reopen] = real.at;
      const before = real.before?.host?.fileDeskLines;
      expect(fault?.outcome, { kind: 'fault', armed: true }, 'the fault found a session file to fail');
      expect(first?.outcome.kind === 'command' && first.outcome.result, 'committed', 'first reserve: the extension committed (appendEntry did not throw)');
      expect(first?.said.map((said) => ('notify' in said ? 'notify' : 'event')), ['event', 'notify'], 'first reserve: the extension emitted its event and notified');
      expect(reserved(first?.desk.quantities, BEAN), 1, 'first reserve: its next read (in memory) holds bean-scarlet 1');
      expect(first?.writeFailure, true, 'first reserve: the manager latched the failure (flush() rejects)');
      expect(first?.host?.fileDeskLines, before, 'first reserve: the file on disk holds no new seed desk line');
      const reported = first?.host?.persistence?.reported ?? [];
      expect(reported.length, 1, 'first reserve: onPersistenceError fired once');
      expect(/EISDIR/.test(reported[0]?.error ?? ''), true, `first reserve: the error is the failed write's (${reported[0]?.error})`);
      expect(/^Session persistence failed: .*Writes are retried; unsaved entries stay in memory/.test(reported[0]?.userNotice ?? ''), true, `first reserve: the host's print/RPC notice says writes are retried (${reported[0]?.userNotice})`);
      expect(first?.host?.persistence?.logged, ['error: Session persistence error.'], 'first reserve: the host logged the failure once');
      expect(second?.outcome.kind === 'command' && second.outcome.result, 'committed', 'second reserve: committed');
      expect(reserved(second?.desk.quantities, BEAN), 2, 'second reserve: bean-scarlet 2 in memory');
      expect(second?.writeFailure, false, 'second reserve: the latch is cleared (flush() resolves)');
      expect(second?.host?.fileDeskLines, typeof before === 'number' ? before + 2 : NaN, 'second reserve: the full rewrite put both seed desk lines on disk');
      expect(second?.host?.persistence?.reported.length, 1, 'second reserve: no further failure reported');
      expect(reopen?.outcome, { kind: 'reopened', found: true }, 'reopen: the file is found');
      expect(reserved(reopen?.desk.quantities, BEAN), 2, 'reopen: bean-scarlet 2 reserved, nothing lost');
      return [
        `first reserve: committed, bean-scarlet 1 in memory, latched, file unchanged (${before} seed desk lines), one report: ${reported[0]?.error}`,
        `the host's notice: ${reported[0]?.userNotice}`,
        `second reserve: committed, latch cleared, file rewritten with ${second?.host?.fileDeskLines} seed desk lines; reopen: bean-scarlet 2`,
      ];
    },
  },
  {
    script: 'lesson-closing-question',
    step: 'other-tab-reserves',
    oneFile: true,
    real: 'a second OMP process finds no session file before the first assistant message and reserves in a session of its own; on one session file (omp --session <file>, on disk at once) it reserves the same 3 marigolds on its own branch, both processes keep theirs and the file holds both; two tabs of the page share one journal',
    assertReal: ({ page, real, oneFile }) => {
      const replay = real.at[0];
      expect(replay?.host?.twin?.found, false, 'replay: the second process found no session file (no assistant message yet)');
      expect(replay?.host?.twin?.sameSession, false, 'replay: so it reserved in a session of its own');
      expect(replay?.outcome.kind === 'command' && replay.outcome.result, 'committed', 'replay: its reservation committed');
      const [tab] = oneFile?.at ?? [];
      const twin = tab?.host?.twin;
      expect(twin?.found === true && twin.sameSession, true, 'one file: the second process opened the same session');
      expect(tab?.outcome.kind === 'command' && tab.outcome.result, 'committed', 'one file: the second process reserved the last 3 marigolds');
      expect(reserved(tab?.desk.quantities, MARIGOLD), 3, 'one file: the first process still holds its 3 marigolds');
      expect(reserved((twin?.view.here as { quantities?: unknown } | null)?.quantities, MARIGOLD), 3, "one file: the second process's branch holds its 3");
      expect(tab?.host?.file?.deskEntries, (oneFile?.before?.host?.fileDeskLines ?? NaN) + 1, 'one file: the file holds one seed desk entry more');
      const pair = tab?.host?.file;
      expect(reserved((pair?.here as { quantities?: unknown } | null)?.quantities, MARIGOLD) + reserved((pair?.other as { quantities?: unknown } | null)?.quantities, MARIGOLD), 6, 'one file: a new process opening the file finds both reservations, on two branches');
      const shown = page.at[0];
      same(shown?.dialog, tab?.dialog, "the page's other tab asked what the second process asked");
      same(shown?.said, tab?.said, "the page's other tab said what the second process said");
      same(shown?.outcome, tab?.outcome, "the page's other tab's outcome is the second process's");
      same(shown?.appended, tab?.appended, "the page's other tab appended what the second process appended");
      same(shown?.desk, tab?.desk, "the page's first tab shows the first process's desk");
      return [
        'replay (no file yet): the second process reserved in a session of its own',
        'one file: the second process opened the same session, reserved 3 marigolds on its own branch (dialog, notices, outcome, entries as the page\'s other tab), the first kept its 3, the file holds both',
      ];
    },
  },
  {
    script: 'lesson-closing-question',
    step: 'compare-overbooked',
    oneFile: true,
    real: "the first OMP process holds no entry of the second, so there is no other branch to compare in it; the second process and any process opening the file later see both branches, 6 of 3 marigolds; the page's tabs share theirs",
    assertReal: ({ page, real, oneFile }) => {
      const shown = page.at[0]?.outcome;
      if (shown?.kind !== 'other-branch') throw new Error(`the page compared nothing: ${JSON.stringify(shown)}`);
      const replay = real.at[0]?.outcome;
      expect(replay?.kind === 'other-branch' && replay.other, null, 'replay: the first process has no other branch');
      const mine = oneFile?.at[0];
      const firstView = mine?.outcome;
      expect(firstView?.kind === 'other-branch' && firstView.other, null, 'one file: the first process holds no entry of the second (no other branch)');
      same(firstView?.kind === 'other-branch' ? firstView.here : undefined, shown.here, "one file: the first process's branch is the page's here");
      const second = oneFile?.of('other-tab-reserves')[0]?.host?.twin?.view;
      same(second, { here: shown.other, other: shown.here }, "one file: the second process's Compare is the page's, from its side");
      same(mine?.host?.file && { here: mine.host.file.here, other: mine.host.file.other }, { here: shown.other, other: shown.here }, 'one file: a new process opening the file compares the same two branches');
      return [
        'replay and one file: the first process has no other branch (it never sees the second\'s entry)',
        "one file: the second process, and a process opening the file, compare the page's two branches: 6 of 3 marigolds",
      ];
    },
  },
];

/** The declared steps of one script. */
export function declaredSteps(script: string): ReadonlySet<string> {
  return new Set(DECLARED.filter((declared) => declared.script === script).map((declared) => declared.step));
}

/** Each declared step exists and its text says "in this page" and names the real OMP: the lesson says the difference. */
export function undeclaredInLessons(): string[] {
  const problems: string[] = [];
  for (const { script, step } of DECLARED) {
    const lesson = LESSONS.find((candidate) => `lesson-${candidate.id}` === script);
    const found = lesson?.steps.find((candidate) => candidate.id === step);
    if (!found) {
      problems.push(`${script}/${step}: no such lesson step`);
      continue;
    }
    const text = [found.title, found.instruction, found.why, found.expected].join('\n');
    if (!/in this page/i.test(text) || !/real OMP/.test(text)) problems.push(`${script}/${step}: its text does not say "in this page" and what the real OMP does`);
  }
  return problems;
}
