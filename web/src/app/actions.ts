import { waitFor } from 'xstate';
import type { LessonAction } from '../lessons/schema';
import { isHumanMutation, MEANWHILE_ITEM, STEP_BACK_PAST_INVALID, type Playground } from './playground.svelte';

const SETTLE_TIMEOUT = 10_000;

/** The revisions tool results returned, newest last, without repeats in a row. */
function toolRevisions(playground: Playground): string[] {
  const revisions: string[] = [];
  for (const fact of playground.facts) {
    if (fact.kind !== 'tool' || fact.outcome.kind !== 'result') continue;
    const revision = fact.outcome.details?.revision;
    if (revision && revisions.at(-1) !== revision) revisions.push(revision);
  }
  return revisions;
}

function fillPlaceholders(args: Record<string, unknown>, playground: Playground): Record<string, unknown> {
  const revisions = toolRevisions(playground);
  const replace = (value: unknown): unknown =>
    value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value;
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, replace(value)]));
}

async function dialogSettled(playground: Playground): Promise<void> {
  await waitFor(playground.confirmation, (snapshot) => !['reading', 'committing'].includes(String(snapshot.value)), { timeout: SETTLE_TIMEOUT });
}

/**
 * Performs one lesson action through the page's own paths (the methods the buttons call) and
 * waits until it has settled, so the next action sees its result.
 */
export async function perform(playground: Playground, action: LessonAction): Promise<void> {
  switch (action.do) {
    case 'line':
      await playground.runLine(action.text);
      if (isHumanMutation(action.text)) await dialogSettled(playground);
      return;
    case 'confirm':
    case 'cancel':
      await waitFor(playground.confirmation, (snapshot) => snapshot.value === 'open', { timeout: SETTLE_TIMEOUT });
      if (action.do === 'confirm') playground.confirm();
      else playground.cancel();
      await dialogSettled(playground);
      return;
    case 'meanwhile-reserve':
      await playground.meanwhileReserve(MEANWHILE_ITEM, 1);
      return;
    case 'meanwhile-step-back':
      await playground.stepBack();
      return;
    case 'step-back':
      await playground.stepBack(STEP_BACK_PAST_INVALID, 'navigated');
      return;
    case 'corrupt-demo':
      await playground.corruptDemo();
      return;
    case 'tool':
      await playground.callTool(JSON.stringify(fillPlaceholders(action.args, playground)), false);
      return;
    case 'approve':
    case 'deny':
      await waitFor(playground.approvalActor, (snapshot) => snapshot.value === 'prompting', { timeout: SETTLE_TIMEOUT });
      playground.answerApproval(action.do === 'approve');
      await waitFor(playground.approvalActor, (snapshot) => snapshot.value === 'idle', { timeout: SETTLE_TIMEOUT });
      return;
    case 'policy':
      await playground.setApprovalPolicy(action.value);
      return;
    case 'approval-mode':
      await playground.setApprovalMode(action.value);
      return;
    case 'interactive':
      await playground.setInteractive(action.value);
      return;
    case 'filter-journal':
      await playground.setJournalFilter(action.text);
      return;
    case 'reopen':
      await playground.reopen();
      return;
    case 'branch-from': {
      const row = (await playground.allTreeRows()).find((candidate) => candidate.text.includes(action.text));
      if (!row) throw new Error(`No entry in the session tree shows "${action.text}".`);
      await playground.branchFrom(row.id);
      return;
    }
    case 'branch-before-last-reservation': {
      const rows = await playground.allTreeRows();
      const last = [...rows].reverse().find((row) => row.isSeedDesk && row.onActivePath);
      if (!last?.parentId) throw new Error('There is no reservation on this branch to go back before.');
      await playground.branchFrom(last.parentId);
      return;
    }
    case 'compare-with-other-branch': {
      const rows = await playground.allTreeRows();
      const other = [...rows].reverse().find((row) => row.isSeedDesk && !row.onActivePath);
      if (!other) throw new Error('There is no seed desk entry on another branch to compare with.');
      await playground.compare(other.id);
      return;
    }
    case 'try-other-revision':
      await playground.tryOtherRevision();
      return;
    case 'new-session':
      await playground.newSession();
      return;
    case 'twin-tab':
      await playground.runTwinTab();
      return;
    case 'fail-next-write':
      await playground.failNextWrite('abort');
      return;
    case 'closing-answer':
      playground.answerClosingQuestion(action.value);
      return;
  }
}
