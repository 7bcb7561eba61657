/// <reference lib="webworker" />
import { asEntryId, asRevision, cryptoIdSource } from '$domain/ids';
import { RequestSchema, type RequestBody, type Response } from '../protocol/messages';
import { PlaygroundHost } from './host';
import { JournalStore } from './store';

/**
 * The worker owns all state and all writes. Requests run strictly one after another, so a commit
 * never interleaves with a navigation or another commit from this tab.
 */
const ready = (async () => {
  const store = await JournalStore.open();
  return PlaygroundHost.start(store, cryptoIdSource);
})();

let queue: Promise<unknown> = Promise.resolve();

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = RequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id = typeof event.data === 'object' && event.data !== null && 'id' in event.data ? Number(event.data.id) : -1;
    post({ id, ok: false, error: `The worker could not read this request: ${parsed.error.issues[0]?.message ?? 'invalid'}`, view: null });
    return;
  }
  const { id, body } = parsed.data;
  queue = queue.then(async () => {
    let host: PlaygroundHost | null = null;
    try {
      host = await ready;
      const result = await handle(host, body);
      post({ id, ok: true, result, view: host.view() });
    } catch (error) {
      post({ id, ok: false, error: error instanceof Error ? error.message : String(error), view: host?.view() ?? null });
    }
  });
});

function post(response: Response): void {
  self.postMessage(response);
}

async function handle(host: PlaygroundHost, body: RequestBody): Promise<unknown> {
  switch (body.type) {
    case 'hello':
      return null;
    case 'line':
      return host.runLine(body.text, body.headless ?? false);
    case 'toolCall':
      return host.callTool(body.args, body.skipSchema);
    case 'answerApproval':
      return host.answerApproval(body.callId, body.approved);
    case 'setApprovalPolicy':
      host.setApprovalPolicy(body.policy);
      return null;
    case 'corruptDemo':
      return host.appendCorruptSnapshot();
    case 'commit':
      return host.commitHumanChange(body.change, asRevision(body.expectedRevision));
    case 'meanwhileReserve':
      return host.meanwhileReserve(body.id, body.packets);
    case 'stepBack':
      host.stepBack();
      return null;
    case 'navigate':
      host.navigate(asEntryId(body.entryId));
      return null;
    case 'reopen':
      await host.reopen();
      return null;
    case 'setInteractive':
      host.setInteractive(body.interactive);
      return null;
    case 'injectFault':
      host.injectFault(body.fault);
      return null;
    case 'journal':
      return { jsonl: host.journalJsonl() };
  }
}
