// The names a step may use, checked against what exists: the workspace's Tools tabs, outline
// names and named checks (lessons/format/workspaceNames.ts), the goal's placeholders and labels,
// and the Code tab's regions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_IDS } from '../domain/fixture.ts';
import { PLACEHOLDERS } from '../lessons/format/goalSchema.ts';
import { CHECK_NAMES as NAMED_CHECK_NAMES, OUTLINE_NAMES, TOOL_TAB_IDS as TAB_IDS } from '../lessons/format/workspaceNames.ts';
import { codeFiles, extractRegions } from './code-view-plugin.mjs';
import { LessonError } from './lesson-error.mjs';

/** The goal's names: labels used only after a part defined them, known checks and placeholders. */
export function checkGoal(file, front, goal) {
  const labels = new Set();
  const placeholder = new Set([...PLACEHOLDERS, ...FIXTURE_IDS.flatMap((id) => ['reserved', 'available', 'packets'].map((field) => `${id}.${field}`))]);
  const words = (text, path) => {
    for (const [, name] of text.matchAll(/\{([a-zA-Z][\w.-]*)\}/g)) {
      if (!placeholder.has(name)) throw new LessonError(file, front.lineOf(path), `unknown placeholder {${name}}: known are ${[...PLACEHOLDERS].join(', ')} and {<item>.reserved|available|packets}`);
    }
  };
  const walk = (condition, path) => {
    for (const kind of ['outcome', 'tool', 'dialog']) {
      const fact = condition[kind];
      if (!fact) continue;
      for (const key of ['after', 'before']) {
        if (fact[key] !== undefined && !labels.has(fact[key])) throw new LessonError(file, front.lineOf([...path, kind, key]), `"${fact[key]}" names no earlier part: give an earlier part "as: ${fact[key]}"`);
      }
      const named = fact.revision?.sameAs ?? fact.revision?.differentFrom;
      if (named !== undefined && !labels.has(named)) throw new LessonError(file, front.lineOf([...path, kind, 'revision']), `"${named}" names no earlier part`);
    }
    if (condition.check && !NAMED_CHECK_NAMES.includes(condition.check.name)) {
      throw new LessonError(file, front.lineOf([...path, 'check', 'name']), `no named check "${condition.check.name}": known are ${NAMED_CHECK_NAMES.join(', ')}`);
    }
    if (condition.not) walk(condition.not, [...path, 'not']);
    for (const key of ['all', 'any']) (condition[key] ?? []).forEach((inner, index) => walk(inner, [...path, key, index]));
  };
  goal.forEach((part, index) => {
    walk(part, ['goal', index]);
    (part.when ?? []).forEach((when, whenIndex) => {
      walk(when, ['goal', index, 'when', whenIndex]);
      words(when.say, ['goal', index, 'when', whenIndex, 'say']);
    });
    if (part.unmet) words(part.unmet, ['goal', index, 'unmet']);
    if (part.as !== undefined) labels.add(part.as);
  });
}

export function checkStepNames(file, front, step, slug, regions) {
  if (step.id !== slug) throw new LessonError(file, front.lineOf(['id']), `the file is named for "${slug}" but the step's id is "${step.id}": rename one (progress is stored by id)`);
  if (step.tab !== undefined && !TAB_IDS.includes(step.tab)) throw new LessonError(file, front.lineOf(['tab']), `no Tools tab "${step.tab}": known are ${TAB_IDS.join(', ')}`);
  step.outline.forEach((name, index) => {
    if (!OUTLINE_NAMES.includes(name)) throw new LessonError(file, front.lineOf(['outline', index]), `nothing to outline called "${name}": known are ${OUTLINE_NAMES.join(', ')}`);
  });
  if (step.code && !regions.has(step.code.region)) throw new LessonError(file, front.lineOf(['code', 'region']), `no code region "${step.code.region}" (a "// #region <name>" marker in extension/ or the domain files the Code tab shows)`);
  const answers = [...step.solution, ...step.wrong.flatMap((wrong) => wrong.try)].some((action) => action.do === 'answer');
  if (answers && !step.question) throw new LessonError(file, front.lineOf(['solution']), 'an "answer" action answers the step\'s own question: give the step a "question:" (ask, answer, explain)');
}

/** The Code tab's region names, read from the marker comments in its files under `root` (no highlighting needed). */
export function codeRegionNames(root) {
  return new Set(codeFiles().flatMap((path) => extractRegions(path, readFileSync(join(root, path), 'utf8')).map((region) => region.name)));
}
