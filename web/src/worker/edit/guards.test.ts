/**
 * The worker's globals while an edited extension is loaded (issue 28): each guarded one refuses
 * with a named error and is reported (even when the code swallows the error), the real ones come
 * back whole, and the host's own work gets the real ones when it needs them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PageHostError } from '../omp/runPolicy';
import { GUARDED, guardsInstalled, installGuards, removeGuards, tripsSoFar, withHostGlobals } from './guards';

afterEach(() => removeGuards());

interface Locks {
  request(name: string, callback: () => unknown): unknown;
}

/** The guarded part of a worker's global scope, as the code under guard calls it. */
interface Scope {
  fetch(url?: string): unknown;
  XMLHttpRequest: new () => unknown;
  WebSocket: new (url?: string) => unknown;
  EventSource: new (url?: string) => unknown;
  importScripts(url?: string): unknown;
  indexedDB: { open(name: string): unknown };
  postMessage(message?: unknown): unknown;
  close(): unknown;
  navigator: { locks: Locks };
}

/** A worker scope's guarded globals, as stand-ins (Node has only some of them). */
function standInScope() {
  const real = {
    fetch: () => 'real fetch',
    XMLHttpRequest: class {},
    WebSocket: class {},
    EventSource: class {},
    importScripts: () => 'real importScripts',
    indexedDB: { open: () => 'real open' },
    postMessage: () => 'real postMessage',
    close: () => 'real close',
  };
  const locks: Locks = { request: () => 'real request' };
  // `locks` lives on WorkerNavigator's prototype, as in the browser: the stub only shadows it.
  const navigator = Object.create({ get locks() { return locks; } }) as { locks: Locks };
  const scope: Scope = { ...real, navigator };
  return { scope, real, locks };
}

type Call = readonly [label: string, call: (scope: Scope) => unknown, said: string];

const NETWORK = "the page's host does not let extension code reach the network.";
const CALLS: readonly Call[] = [
  ['fetch', (scope) => scope.fetch('https://example.org'), `Your extension called fetch(); ${NETWORK}`],
  ['XMLHttpRequest', (scope) => new scope.XMLHttpRequest(), `Your extension called new XMLHttpRequest(); ${NETWORK}`],
  ['WebSocket', (scope) => new scope.WebSocket('wss://example.org'), `Your extension called new WebSocket(); ${NETWORK}`],
  ['EventSource', (scope) => new scope.EventSource('/events'), `Your extension called new EventSource(); ${NETWORK}`],
  ['importScripts', (scope) => scope.importScripts('https://example.org/x.js'), "Your extension called importScripts(); the page's host loads no scripts for extension code."],
  [
    'indexedDB.open',
    (scope) => scope.indexedDB.open('seed-desk'),
    "Your extension called indexedDB.open(); the journal's database belongs to the page's host (read the session with ctx.sessionManager, write with pi.appendEntry).",
  ],
  ['navigator.locks', (scope) => scope.navigator.locks.request('seed-desk', () => undefined), "Your extension called navigator.locks.request(); the page's host holds its Web Locks for its own store."],
  ['postMessage', (scope) => scope.postMessage({ kind: 'response', id: 1 }), "Your extension called postMessage(); only the page's host speaks to the page (extension code speaks through ctx.ui)."],
  ['close', (scope) => scope.close(), "Your extension called close(); closing the worker would stop the page's host, journal and all."],
];

describe('while an edited extension is loaded', () => {
  it.each(CALLS)('%s throws a PageHostError that names the call and why, and reports it', (_label, call, said) => {
    const { scope } = standInScope();
    const reported: string[] = [];
    installGuards((text) => reported.push(text), scope);
    const before = tripsSoFar().count;
    let thrown: unknown = null;
    try {
      call(scope);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PageHostError);
    expect((thrown as Error).name).toBe('PageHostError');
    expect((thrown as Error).message).toBe(said);
    expect(reported).toEqual([said]);
    expect(tripsSoFar()).toEqual({ count: before + 1, last: said });
  });

  it('every guarded global is covered by a call above', () => {
    expect(GUARDED.map((guarded) => (guarded.on === 'navigator' ? `navigator.${guarded.name}` : guarded.name)).sort()).toEqual(
      CALLS.map(([label]) => label.replace('indexedDB.open', 'indexedDB')).sort(),
    );
  });

  it('a call the code catches and swallows is still reported', () => {
    const { scope } = standInScope();
    const reported: string[] = [];
    installGuards((text) => reported.push(text), scope);
    try {
      scope.fetch();
    } catch {
      // The learner's code swallows it.
    }
    expect(reported).toEqual([`Your extension called fetch(); ${NETWORK}`]);
  });
});

describe('the real globals', () => {
  it('come back whole when the guards go: the same functions and objects, and no own property where there was none', () => {
    const { scope, real, locks } = standInScope();
    installGuards(() => undefined, scope);
    expect(guardsInstalled()).toBe(true);
    expect(scope.fetch).not.toBe(real.fetch);
    expect(scope.navigator.locks).not.toBe(locks);
    removeGuards();
    expect(guardsInstalled()).toBe(false);
    for (const [name, value] of Object.entries(real)) expect(scope[name as keyof typeof real]).toBe(value);
    expect(scope.navigator.locks).toBe(locks);
    expect(Object.getOwnPropertyNames(scope.navigator)).toEqual([]);
  });

  it('installing again only changes whom a refusal is reported to; the originals are kept once', () => {
    const { scope, real } = standInScope();
    const first: string[] = [];
    const second: string[] = [];
    installGuards((text) => first.push(text), scope);
    installGuards((text) => second.push(text), scope);
    expect(() => scope.close()).toThrow(PageHostError);
    expect([first.length, second.length]).toEqual([0, 1]);
    removeGuards();
    expect(scope.close).toBe(real.close);
  });

  it('are the host’s while its own work needs them (the compiler’s fetch), and guarded again after', async () => {
    const { scope, real } = standInScope();
    installGuards(() => undefined, scope);
    const during = await withHostGlobals(async () => scope.fetch());
    expect(during).toBe('real fetch');
    expect(scope.fetch).not.toBe(real.fetch);
    expect(() => scope.fetch()).toThrow(PageHostError);
  });

  it('on this process’s own global scope: fetch is refused while guarded, then is the same function again', async () => {
    const realFetch = globalThis.fetch;
    installGuards(() => undefined);
    await expect(Promise.resolve().then(() => fetch('http://127.0.0.1:9/'))).rejects.toThrow("Your extension called fetch(); the page's host does not let extension code reach the network.");
    removeGuards();
    expect(globalThis.fetch).toBe(realFetch);
  });
});
