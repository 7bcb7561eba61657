import { PageHostError } from '../omp/runPolicy';

/**
 * The worker's globals that extension code must not use, replaced by stubs while the learner's
 * edited extension is loaded (issue 28). Each stub throws a PageHostError that names what the code
 * called and why the page's host refuses it, and tells `report`, so a call the code catches and
 * swallows is still named. The worker's own code never reads these globals while the stubs are in:
 * it took what it needs at start-up (worker.ts keeps its own `postMessage`, the store its database
 * and its lock manager); the compiler's one `fetch` runs with the real globals (`withHostGlobals`).
 *
 * A guard against mistakes, not a wall: the code runs in the worker's own realm and a deliberate
 * escape can find the real functions again (a prototype, a timer that outlives the guard). What
 * keeps the network closed is the worker's CSP, `connect-src 'self'` (scripts/worker-csp-plugin.mjs).
 */

const NETWORK = "the page's host does not let extension code reach the network";

interface Guarded {
  /** Where the global lives: the worker's scope, or its `navigator`. */
  readonly on: 'scope' | 'navigator';
  readonly name: string;
  /** A function (also callable with `new`), or an object whose methods are each refused. */
  readonly methods?: readonly string[];
  readonly why: string;
}

export const GUARDED: readonly Guarded[] = [
  { on: 'scope', name: 'fetch', why: NETWORK },
  { on: 'scope', name: 'XMLHttpRequest', why: NETWORK },
  { on: 'scope', name: 'WebSocket', why: NETWORK },
  { on: 'scope', name: 'EventSource', why: NETWORK },
  { on: 'scope', name: 'importScripts', why: "the page's host loads no scripts for extension code" },
  {
    on: 'scope',
    name: 'indexedDB',
    methods: ['open', 'deleteDatabase', 'databases'],
    why: "the journal's database belongs to the page's host (read the session with ctx.sessionManager, write with pi.appendEntry)",
  },
  { on: 'navigator', name: 'locks', methods: ['request', 'query'], why: "the page's host holds its Web Locks for its own store" },
  { on: 'scope', name: 'postMessage', why: "only the page's host speaks to the page (extension code speaks through ctx.ui)" },
  { on: 'scope', name: 'close', why: "closing the worker would stop the page's host, journal and all" },
];

/** What a guarded call says: the call as the code wrote it, then why. */
export function refusalText(called: string, why: string): string {
  return `Your extension called ${called}; ${why}.`;
}

interface Saved {
  readonly target: object;
  readonly name: string;
  /** The property as it was (undefined: there was no own property, the stub only shadowed one). */
  readonly descriptor: PropertyDescriptor | undefined;
}

type Report = (text: string) => void;

let saved: Saved[] | null = null;
let report: Report = () => undefined;
let scope: object = globalThis;
let trips = 0;
let lastTrip: string | null = null;

/** Puts the stubs in (again: only `onTrip` changes); `target` is the worker's global scope (a stand-in in tests). */
export function installGuards(onTrip: Report, target: object = globalThis): void {
  report = onTrip;
  if (saved) return;
  scope = target;
  saved = [];
  for (const guarded of GUARDED) {
    const owner = guarded.on === 'scope' ? target : (target as { navigator?: object }).navigator;
    if (owner === undefined || owner === null) continue;
    saved.push({ target: owner, name: guarded.name, descriptor: Object.getOwnPropertyDescriptor(owner, guarded.name) });
    Object.defineProperty(owner, guarded.name, { value: stubFor(guarded), configurable: true, writable: true, enumerable: false });
  }
}

/** The real globals back (after "Back to the shipped extension"). */
export function removeGuards(): void {
  if (!saved) return;
  for (const { target, name, descriptor } of saved.reverse()) {
    if (descriptor) Object.defineProperty(target, name, descriptor);
    else delete (target as Record<string, unknown>)[name];
  }
  saved = null;
}

export function guardsInstalled(): boolean {
  return saved !== null;
}

/** How many guarded calls so far, and the last one's text: what a load that swallowed one did. */
export function tripsSoFar(): { readonly count: number; readonly last: string | null } {
  return { count: trips, last: lastTrip };
}

/**
 * The host's own work that needs a real global while the stubs are in (the compiler fetches its
 * .wasm once per worker). Extension code that runs meanwhile (a timer) sees the real globals too:
 * one more reason this is a guard against mistakes, not a boundary.
 */
export async function withHostGlobals<T>(work: () => Promise<T>): Promise<T> {
  if (!saved) return work();
  const target = scope;
  const onTrip = report;
  removeGuards();
  try {
    return await work();
  } finally {
    installGuards(onTrip, target);
  }
}

function stubFor(guarded: Guarded): unknown {
  const qualified = guarded.on === 'navigator' ? `navigator.${guarded.name}` : guarded.name;
  if (guarded.methods) {
    const stub: Record<string, () => never> = {};
    for (const method of guarded.methods) stub[method] = () => refuse(`${qualified}.${method}()`, guarded.why);
    return Object.freeze(stub);
  }
  const called = /^[A-Z]/.test(guarded.name) ? `new ${guarded.name}()` : `${guarded.name}()`;
  // A plain function, so `new WebSocket(…)` reaches it as well as `fetch(…)`.
  return function refused(): never {
    return refuse(called, guarded.why);
  };
}

function refuse(called: string, why: string): never {
  const text = refusalText(called, why);
  trips++;
  lastTrip = text;
  report(text);
  throw new PageHostError(text);
}
