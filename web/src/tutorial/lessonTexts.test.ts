/**
 * The lessons as content (lessons/, compiled by scripts/lesson-plugin.mjs): eight lessons, one per
 * section of the source, every step id kept but the two issue 27 retired, texts in our own words, revision placeholders only where they belong.
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../../scripts/lessons.mjs';
import { CHECK_NAMES as NAMED_CHECK_NAMES } from '../../../lessons/format/workspaceNames';

const TITLES = [
  'A reservation you confirm',
  'Let the agent act, within limits',
  'Refusals are answers',
  "The host's gate and the desk's grant",
  'The desk follows your branch',
  'Taking permission back, and running without a screen',
  'What a change does and does not promise',
  'Two tabs, one question',
];

/**
 * The step ids as they were in lessons.ts: progress is stored by them, so every one stays, in the
 * order of the lessons since issue 27 (one lesson per section of the source).
 */
const KEPT_STEP_IDS = [
  ['query-desk', 'cancel-before-commit', 'confirm-reservation', 'race-refused', 'basil-exercise'],
  ['act-before-grant', 'grant-agent', 'tool-discover', 'tool-query-inspect', 'render-result-presentation', 'careful-act', 'stale-reuse'],
  ['tool-refusals', 'excess-release'],
  ['mode-vs-grant', 'headless-prompt-fails-closed', 'gates-spare-other-code'],
  ['journal-filter', 'reopen-survives', 'rewind-before-reservation', 'sibling-reservation', 'written-branch-kept', 'sibling-token-refused', 'corrupt-branch', 'fresh-session'],
  ['revoke-agent', 'act-after-revoke', 'headless-ui-required', 'headless-reopen-grant', 'headless-revoke-refused', 'headless-tool-allow'],
  ['append-no-receipt', 'persistence-gate', 'query-after-commit', 'events-start-nothing', 'storage-failure-latch'],
  ['reserve-all-marigolds', 'other-tab-reserves', 'compare-overbooked', 'closing-answer'],
];

/**
 * Retired by issue 27, each because its meaning went: cancel before commit is taught once, in
 * lesson 1; a plain move does survive a close once the session holds an assistant message (the
 * host's session_exit), so plain-move-reopen asks for a query after the reopen instead.
 */
const RETIRED_STEP_IDS = ['cancel-changes-nothing', 'plain-move-not-kept'];

/** Steps added since (issue 22, "every claim is taught"), each after the kept step it follows. */
const ADDED_AFTER: Readonly<Record<string, string>> = {
  'no-inventory-file': 'basil-exercise',
  'query-by-family': 'tool-query-inspect',
  'bad-quantities': 'tool-refusals',
  'schema-then-domain': 'bad-quantities',
  'plain-move-reopen': 'sibling-token-refused',
  'message-keeps-revision': 'plain-move-reopen',
  'grant-moves-revision': 'message-keeps-revision',
  'refusal-then-requery': 'stale-reuse',
  // Issue 30: the lesson's agent request, played by the careful agent or by a real model.
  'agent-request': 'refusal-then-requery',
  'corrupt-not-skipped': 'corrupt-branch',
  'headless-policy-choice': 'headless-revoke-refused',
  'no-durability-promise': 'persistence-gate',
  'no-gap-not-a-lock': 'compare-overbooked',
};

describe('lessons as content', () => {
  it('has the eight lessons of the source, "Break it" and "Your own branch-aware extension", of three to fourteen steps (the last: two), each with at least one wrong attempt per step', () => {
    expect(LESSONS).toHaveLength(10);
    expect(LESSONS.at(-2)?.id).toBe('break-it');
    expect(LESSONS.at(-1)?.id).toBe('own-branch-state');
    expect(LESSONS.at(-1)?.steps).toHaveLength(2);
    for (const lesson of LESSONS.slice(0, -1)) {
      expect(lesson.steps.length, lesson.id).toBeGreaterThanOrEqual(3);
      expect(lesson.steps.length, lesson.id).toBeLessThanOrEqual(14);
      for (const step of lesson.steps) expect(step.wrong.length, step.id).toBeGreaterThan(0);
    }
  });

  it('keeps every step id the playground had before the lessons became markdown, but the retired ones, and the lessons\' titles', () => {
    const source = LESSONS.filter((lesson) => lesson.id !== 'break-it' && lesson.own !== true);
    expect(source.map((lesson) => lesson.title)).toEqual(TITLES);
    const kept = source.map((lesson) => lesson.steps.map((step) => step.id).filter((id) => !Object.hasOwn(ADDED_AFTER, id)));
    expect(kept).toEqual(KEPT_STEP_IDS);
    const ids = LESSONS.flatMap((lesson) => lesson.steps.map((step) => step.id));
    for (const retired of RETIRED_STEP_IDS) expect(ids, retired).not.toContain(retired);
  });

  it('places each added step right after the step it builds on', () => {
    // The eight lessons the source teaches (a lesson added later keeps its own list).
    const ids = LESSONS.filter((lesson) => TITLES.includes(lesson.title)).flatMap((lesson) => lesson.steps.map((step) => step.id));
    const unknown = ids.filter((id) => !Object.hasOwn(ADDED_AFTER, id) && !KEPT_STEP_IDS.flat().includes(id));
    expect(unknown, 'a step that is neither kept nor listed as added').toEqual([]);
    for (const [added, after] of Object.entries(ADDED_AFTER)) expect(ids[ids.indexOf(added) - 1], added).toBe(after);
  });

  it('has unique lesson ids and unique step ids (progress is stored by step id)', () => {
    const lessonIds = LESSONS.map((lesson) => lesson.id);
    expect(new Set(lessonIds).size).toBe(lessonIds.length);
    const stepIds = LESSONS.flatMap((lesson) => lesson.steps.map((step) => step.id));
    expect(new Set(stepIds).size).toBe(stepIds.length);
  });

  it('names every named check a goal uses in the registry, and every wrong attempt a hint', () => {
    for (const lesson of LESSONS) {
      for (const step of lesson.steps) {
        for (const part of step.goal) if (part.check) expect(NAMED_CHECK_NAMES, step.id).toContain(part.check.name);
        for (const wrong of step.wrong) expect(wrong.hint.trim(), `${step.id}: ${wrong.name}`).not.toBe('');
      }
    }
  });

  it('has non-empty texts and a non-empty solution for every step', () => {
    for (const lesson of LESSONS) {
      expect(lesson.title.trim(), lesson.id).not.toBe('');
      expect(lesson.summary.trim(), lesson.id).not.toBe('');
      for (const step of lesson.steps) {
        for (const text of [step.title, step.instruction, step.why, step.expected]) expect(text.trim(), step.id).not.toBe('');
        expect(step.solution.length, step.id).toBeGreaterThan(0);
        // An odd number of backticks would leave the rest of the text rendered as code.
        for (const text of [step.instruction, step.why, step.expected]) expect(text.split('`').length % 2, `${step.id}: ${text}`).toBe(1);
      }
    }
  });

  /** Distinctive sentences of the source lesson: ours must be written in our own words. */
  const SOURCE_SENTENCES = [
    'Cancellation before commit is not a release.',
    'Reusing the old one is a refusal, not a second reservation.',
    'A successful action returns a new revision.',
    'Ordinary conversation does not stale the domain revision.',
    "A sibling state snapshot cannot be reused as the current branch's revision.",
    'A new session has a distinct identity.',
    'A branch inherits the reservations and grants in its ancestry.',
    'Before commit, cancellation changes nothing.',
    'After commit, cancellation cannot undo a reservation.',
    'Query before retrying.',
    'Status notifications and bus events do not start an agent turn.',
    'It would need a shared authoritative store, atomic stock operations, durable request identity and coordination across users and processes.',
    'This stage deliberately teaches fictional branch-local reservations.',
    'A confirmation dialog is an await.',
    'During that wait, another action or a session-tree movement may occur.',
    'Do not retry blindly.',
    'Storage failures can be latched and surfaced by the host.',
    'A sibling revision token was rejected.',
    'Rewinding before a reservation showed zero reserved.',
    'A fresh session had no carried reservation and agent authority was off.',
    'Cancellation appended no state entry.',
    'She does not want the tool to grant itself that authority.',
    'Seed Desk refuses both grant and revoke commands without UI.',
    'This also asks for confirmation and appends a new snapshot.',
    'The extension does not write a separate inventory file.',
    'That prevents JavaScript invocations from interleaving inside this small validation-and-append segment.',
    'It is not a cross-process transaction or a durable database lock.',
    'The schema can reject malformed inputs before the domain runs.',
    'The domain also validates action, quantity and target.',
    "That is the supplied stage's exact policy, not a general recommendation for all applications.",
    'The current file session manager normally hands completed appends to the OS synchronously once persistence is materialized, but it does not provide a power-loss/fsync guarantee through this extension API.',
    'A reservation or permission change does.',
    'Return valid IDs, available/reserved quantities and a revision; optionally filter by exact family',
  ];

  const words = (text: string): string[] =>
    text
      .toLowerCase()
      .replace(/[’']/g, "'")
      .split(/[^a-z0-9'-]+/)
      .filter((word) => word.length > 0);

  const allTexts = (): { where: string; text: string }[] =>
    LESSONS.flatMap((lesson) => [
      { where: `${lesson.id} title`, text: lesson.title },
      { where: `${lesson.id} summary`, text: lesson.summary },
      ...lesson.steps.flatMap((step) =>
        [step.title, step.instruction, step.why, step.expected, step.question?.ask ?? '', step.question?.explain ?? ''].map((text) => ({ where: step.id, text })),
      ),
    ]);

  it('copies no sentence of the source lesson', () => {
    for (const { where, text } of allTexts()) {
      const ours = words(text).join(' ');
      for (const sentence of SOURCE_SENTENCES) expect(ours.includes(words(sentence).join(' ')), `${where} contains "${sentence}"`).toBe(false);
    }
  });

  it('shares no run of six words with those sentences', () => {
    const RUN = 6;
    const runs = new Set<string>();
    for (const sentence of SOURCE_SENTENCES) {
      const w = words(sentence);
      for (let i = 0; i + RUN <= w.length; i++) runs.add(w.slice(i, i + RUN).join(' '));
    }
    for (const { where, text } of allTexts()) {
      const w = words(text);
      for (let i = 0; i + RUN <= w.length; i++) {
        const run = w.slice(i, i + RUN).join(' ');
        expect(runs.has(run), `${where} repeats "${run}"`).toBe(false);
      }
    }
  });

  it('uses revision placeholders only where a revision goes, and only after a tool result exists', () => {
    for (const lesson of LESSONS) {
      let toolResults = 0;
      for (const action of [...lesson.setup, ...lesson.steps.flatMap((step) => step.solution)]) {
        if (action.do !== 'tool') continue;
        for (const [key, value] of Object.entries(action.args)) {
          if (value === '$latest' || value === '$previous') {
            expect(key, lesson.id).toBe('expectedRevision');
            expect(toolResults, `${lesson.id}: ${value} before enough tool results`).toBeGreaterThanOrEqual(value === '$latest' ? 1 : 2);
          }
        }
        toolResults++;
      }
    }
  });
});
