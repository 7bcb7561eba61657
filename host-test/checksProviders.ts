/**
 * (p) What the real OMP sends each provider (issue 35, point 3), judged by that provider's rules
 * (providers/index.ts). For each provider, two turns of a real AgentSession with the built
 * extension loaded (providerBodies.ts: `session.prompt` with fetch replaced, nothing sent):
 *
 * - as installed (OMP's defaults): an extension tool is "discoverable" and `tools.xdev` is on, so
 *   OMP mounts seed_desk as the device `xd://seed_desk` (pi-coding-agent `tools/xdev.ts`
 *   `isMountableUnderXdev`, `sdk.ts`): its schema is not in the request's tools at all; the system
 *   prompt names the device and the model reads it, then writes its arguments as JSON;
 * - top-level (`tools.xdev: false`, or an extension tool declaring `loadMode: "essential"`):
 *   seed_desk's schema goes through the agent loop's `normalizeTools` (the intent field `i`) and
 *   the provider layer's own reshaping, into the request body.
 *
 * The session's own retries are off (`retry.enabled`): a refused body would otherwise be sent again
 * with backoff (eleven times for OpenRouter's "Provider returned error"); the provider layer's own
 * second try (OpenAI without strict tools) still happens and is judged too.
 *
 * Every request of both turns must be accepted, and in the top-level turn the model must be told
 * seed_desk's op enum and act's fields after the provider's own decoding (`seedDeskToldEnough`).
 */
import { judgeRequest, seedDeskToldEnough, type Judgement, type ToolAsTold } from '../providers/index';
import type { CheckContext } from './checkKit';
import { openSession } from './omp';
import { captureRegistry, captureTurn, PROVIDER_CASES, type CapturedRequest, type ProviderCase } from './providerBodies';
import type { Checks } from './report';

const PROMPT = 'Reserve one packet of bean-scarlet for me.';

interface Turn {
  readonly requests: readonly CapturedRequest[];
  readonly judgements: readonly Judgement[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema's op values and field names, over its root and its union branches (as a model reading it would gather them). */
export function describeTold(tool: ToolAsTold): string {
  const root = tool.parameters;
  if (!isRecord(root)) return `${tool.name}: no schema`;
  const branches = [root, ...(['oneOf', 'anyOf'] as const).flatMap((key) => (Array.isArray(root[key]) ? (root[key] as unknown[]).filter(isRecord) : []))];
  const fields = new Set<string>();
  const ops = new Set<string>();
  for (const branch of branches) {
    const properties = isRecord(branch['properties']) ? branch['properties'] : {};
    for (const [name, property] of Object.entries(properties)) {
      fields.add(name);
      if (name === 'op' && isRecord(property)) {
        const values = Array.isArray(property['enum']) ? property['enum'] : 'const' in property ? [property['const']] : [];
        for (const value of values) ops.add(String(value));
      }
    }
  }
  const shape = root['type'] === 'object' ? 'object' : ['oneOf', 'anyOf'].find((key) => key in root) ?? `type ${JSON.stringify(root['type'] ?? null)}`;
  const missing = seedDeskToldEnough(tool);
  return `${tool.name}: ${shape}; op ${ops.size ? [...ops].join('|') : '(none)'}; fields ${fields.size ? [...fields].join(', ') : '(none)'}${missing.length ? `; missing ${missing.join(', ')}` : ''}`;
}

function toolsSent(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body['tools'])) return [];
  return body['tools'].flatMap((tool: unknown) => {
    if (!isRecord(tool)) return [];
    if (Array.isArray(tool['functionDeclarations'])) return tool['functionDeclarations'].flatMap((each: unknown) => (isRecord(each) && typeof each['name'] === 'string' ? [each['name']] : []));
    const fn = isRecord(tool['function']) ? tool['function'] : tool;
    return typeof fn['name'] === 'string' ? [fn['name']] : [];
  });
}

function refusalText(judgement: Judgement): string {
  return judgement.accepted ? 'accepted' : `refused ${judgement.status} ${judgement.body}`;
}

export async function providerChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  // Built by the first check (its time includes it); a failure to build fails every check, not the run.
  let registered: ReturnType<typeof captureRegistry> | undefined;
  const turn = async (each: ProviderCase, xdev: boolean): Promise<Turn> => {
    const { registry, models } = await (registered ??= captureRegistry(ctx.dir('provider-registry')));
    const h = await openSession({ dir: ctx.dir(`provider-${each.provider}-${xdev ? 'xdev' : 'top'}`), headless: true, model: { registry, model: models.get(each) }, settings: { 'tools.xdev': xdev, 'retry.enabled': false } });
    try {
      const requests = await captureTurn(h, PROMPT, (_url, body) => {
        const judgement = judgeRequest(each.kind, body);
        return judgement.accepted ? null : { status: judgement.status, body: judgement.body };
      });
      return { requests, judgements: requests.map((request) => judgeRequest(each.kind, request.body)) };
    } finally {
      await h.close();
    }
  };
  for (const each of PROVIDER_CASES) {
    await checks.run(`(p) ${each.label}, ${each.provider}/${each.model} (${each.source}): every request the real OMP sends passes the provider's rules, and a top-level seed_desk is told its ops and act's fields`, async () => {
      const installed = await turn(each, true);
      const top = await turn(each, false);
      const problems: string[] = [];
      for (const [name, result] of [['as installed', installed], ['top-level', top]] as const) {
        if (result.requests.length === 0) problems.push(`${name}: OMP sent no request`);
        result.judgements.forEach((judgement, index) => {
          if (!judgement.accepted) problems.push(`${name}, request ${index + 1} (${result.requests[index]!.url}): ${refusalText(judgement)}`);
        });
      }
      const first = installed.requests[0];
      if (first && toolsSent(first.body).includes('seed_desk')) problems.push('as installed: seed_desk is in the tools, not mounted as xd://seed_desk');
      if (first && !/xd:\/\/seed_desk — /.test(JSON.stringify(first.body))) problems.push('as installed: the request does not name the device xd://seed_desk');
      const told = top.judgements.find((judgement): judgement is Extract<Judgement, { accepted: true }> => judgement.accepted)?.tools.find((tool) => tool.name === 'seed_desk');
      if (top.judgements.some((judgement) => judgement.accepted) && !told) problems.push('top-level: seed_desk is not among the tools the model is told');
      const missing = told ? seedDeskToldEnough(told) : [];
      if (missing.length > 0) problems.push(`top-level: the model is not told ${missing.join(', ')}`);
      // The line the system prompt gives the device (its docs and schema come when the model reads it).
      const device = /xd:\/\/seed_desk — .{0,24}/.exec(JSON.stringify(first?.body ?? null))?.[0];
      const verdicts = (turn: Turn) => turn.judgements.map((judgement) => (judgement.accepted ? 'accepted' : `refused ${judgement.status}`)).join(', then ') || 'no request';
      const line = `${first ? new URL(first.url).pathname : '-'}: as installed ${verdicts(installed)}, told "${device ?? '(nothing)'}…" (not in tools); top-level ${verdicts(top)}, told ${told ? describeTold(told) : 'nothing of seed_desk'}`;
      if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${line}`);
      return line;
    });
  }
}
