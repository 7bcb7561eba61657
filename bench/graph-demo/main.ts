/**
 * Development-only page for the session graph: ?n=<entries>&branch=1 (leaf on a side branch)
 * &filter=all|conversation|seed-desk&theme=light|dark&baseline=1 (the old tree's rows instead, to compare)
 * &every=<main-line entries between side branches>. It records three measures the harness reads:
 * `graph:layout` (what the worker would spend), `graph:parse` (the page's schema check) and
 * `graph:first-render` (mount to the frame after the rows are in the DOM).
 */
import { flushSync, mount } from 'svelte';
import { graphLayout } from '$domain/journal/graphLayout';
import type { TreeFilter } from '$domain/journal/treeLayout';
import { GraphRowSchema } from '../../web/src/protocol/graph';
import * as z from 'zod/mini';
import GraphDemo from './GraphDemo.svelte';
import { demoJournal } from './demoJournal';

const params = new URLSearchParams(location.search);
const total = Number(params.get('n') ?? '80');
const filter = (params.get('filter') ?? 'all') as TreeFilter;
const theme = params.get('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.dataset['theme'] = theme;

const journal = demoJournal(total, params.get('branch') === '1', Number(params.get('every') ?? '40'));
performance.mark('layout-start');
const built = graphLayout(journal, journal.leafId, filter);
performance.measure('graph:layout', 'layout-start');
// The page parses what crosses the worker boundary; a structured clone stands in for postMessage.
const sent: unknown = structuredClone(built);
performance.mark('parse-start');
const rows = z.array(GraphRowSchema).parse(sent);
performance.measure('graph:parse', 'parse-start');

const start = performance.now();
const target = document.getElementById('app');
if (!target) throw new Error('no #app');
mount(GraphDemo, { target, props: { rows, baseline: params.get('baseline') === '1' } });
flushSync();
requestAnimationFrame(() => {
  performance.measure('graph:first-render', { start, end: performance.now(), detail: rows.length });
  document.body.dataset['ready'] = 'true';
});
