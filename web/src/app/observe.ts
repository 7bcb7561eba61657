import type { Observed } from '../tutorial/facts';
import type { Playground } from './playground.svelte';

/**
 * What a goal check reads of the playground: the view, the facts since the step began (`from`),
 * and the panels' contents as getters, so a check depends only on what its goal reads: an
 * answer's event or conversation update does not run again a check that never looks at them
 * (issue 38: the check ran twice per query, once for the answer's events and once for its facts).
 */
export function observe(playground: Playground, from: number): Observed | null {
  const view = playground.view;
  if (!view) return null;
  const { conversation, events, journal, tree } = playground;
  return {
    view,
    facts: playground.facts.facts.filter((fact) => fact.seq >= from),
    get branch() {
      return conversation.items;
    },
    get events() {
      return events.items;
    },
    get journalFilter() {
      return journal.filter;
    },
    get journalLines() {
      return journal.lines;
    },
    get comparison() {
      return tree.comparison;
    },
  };
}
