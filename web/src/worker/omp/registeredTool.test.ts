/**
 * What the shipped extension registers for seed_desk (extension/tool.ts through the worker's OMP
 * runtime, whose `Type.Unsafe` keeps the document as OMP's shim does): the parameters every
 * provider accepts (issue 35), and the tool's own check of the op's fields, thrown from the
 * extension's code, so the real OMP runs it too.
 */
import { describe, expect, it } from 'vitest';
import { asSessionId } from '$domain/ids';
import { sessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { seedDeskJsonSchema } from '$domain/tool/jsonSchema';
import { opFieldsProblem } from '$domain/tool/opFields';
import { expectProviderShape } from '$domain/tool/providerShape.testkit';
import { SEED_DESK_TOOL_DESCRIPTION } from '$domain/tool/schema';
import seedDesk from '../../../../extension/seed-desk';
import { ExtensionRuntime, type HostServices } from './extensionRuntime';
import { PageUi } from './pageUi';
import { AgentFacts } from './agentFacts';

async function loaded(): Promise<ExtensionRuntime> {
  const journal = SessionJournal.empty(sessionHeader(asSessionId('5e55e55e-0000-4000-8000-0000000000aa'), '2026-05-01T12:00:00.000Z', '/test'));
  const services: HostServices = {
    currentJournal: () => journal,
    appendCustom: () => undefined,
    appendCustomMessage: () => undefined,
    pageUi: new PageUi(),
    agent: new AgentFacts(),
    hasUI: () => true,
    setStatus: () => undefined,
    notified: () => undefined,
    emitted: () => undefined,
  };
  return ExtensionRuntime.load(seedDesk, services);
}

describe('seed_desk as the extension registers it', () => {
  it('has one root object with op a string enum, exactly the shared JSON Schema, and the description that points the model at the text', async () => {
    const tool = (await loaded()).tools.get('seed_desk')?.definition;
    expect(tool).toBeDefined();
    const parameters = tool?.parameters as Record<string, unknown>;
    expectProviderShape(parameters);
    expect(parameters).toEqual(seedDeskJsonSchema);
    expect(tool?.description).toBe(SEED_DESK_TOOL_DESCRIPTION);
  });

  it('throws the tool\'s own check from its execute: an act without expectedRevision never reaches the desk', async () => {
    const runtime = await loaded();
    const args = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 };
    const run = runtime.runTool('seed_desk', 'call_1', args);
    await run?.settle();
    expect(run?.result).toEqual({ ok: false, error: opFieldsProblem('act', args) });
  });
});
