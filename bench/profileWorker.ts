/**
 * BENCH_PROFILE=worker: Chromium's sampling profiler (CDP) on the app's worker while the page
 * runs an action, reduced to self time by function and by file. Playwright opens CDP sessions on
 * pages only, so the worker is reached through the page's target: auto-attached (not flattened),
 * with its messages sent and read through `Target.sendMessageToTarget`.
 */
import type { CDPSession, Page } from 'playwright';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Starts the profiler on the page's first dedicated worker; the returned stop prints the top self times. */
export async function profileWorker(page: Page, top = 30): Promise<() => Promise<string>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  let workerSession: string | null = null;
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.attachedToTarget', (event) => {
    if (event.targetInfo.type === 'worker' && workerSession === null) workerSession = event.sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  for (let tries = 0; workerSession === null && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (workerSession === null) throw new Error('the page has no worker to profile (none attached within 5 s)');
  const session: string = workerSession;
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId: session, message: JSON.stringify({ id, method, params }) });
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 50 });
  await send('Profiler.start');
  return async () => {
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    return summarize(profile, top);
  };
}

/** Self and total time by function, and self time by file, largest first. */
export function summarize(profile: Profile, top: number): string {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFile = new Map<string, number>();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (node: ProfileNode | undefined) => `${node?.callFrame.functionName || '(anonymous)'} ${node?.callFrame.url.split('/').pop() || '(native)'}:${node?.callFrame.lineNumber ?? ''}`;
  let busy = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const node = nodes.get(id);
    const micros = profile.timeDeltas?.[index] ?? 0;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + micros);
    const file = node?.callFrame.url.split('/').pop() || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
    if (node?.callFrame.functionName !== '(idle)') busy += micros;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = keyOf(nodes.get(at));
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  });
  const lines = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, micros]) => `${(micros / 1000).toFixed(1).padStart(8)} ms  ${key}`);
  return [`busy ${(busy / 1000).toFixed(1)} ms`, 'by function (self):', ...lines(self), 'by function (total):', ...lines(inclusive), 'by file (self):', ...lines(byFile)].join('\n');
}
