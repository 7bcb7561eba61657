import '../zodSetup';
import * as z from 'zod/mini';
import { isRefusalCode, type RefusalCode } from '../refusal';
import type { ToolDetails, ToolResult } from '../tool/seedDeskTool';

/**
 * What an agent gets back from one seed_desk call. `isError` marks a call that never reached the
 * domain or was stopped around it (schema failure, host approval denied, policy deny); such an
 * observation may carry no `details`. A domain refusal is NOT an error: it comes back with
 * `isError: false` and `details.ok: false`.
 */
export interface AgentObservation {
  readonly ok: boolean;
  readonly isError: boolean;
  readonly text: string;
  readonly details?: ToolDetails;
}

export type AgentStep =
  /** Call seed_desk with these arguments; `thought` says why, in the agent's own words. */
  | { readonly kind: 'call'; readonly args: Record<string, unknown>; readonly thought: string }
  /** Stop; `summary` is what the agent tells the human. */
  | { readonly kind: 'done'; readonly summary: string };

/**
 * A deterministic, scripted stand-in for a model. Stateful: create a fresh one per run. `next`
 * receives the observation of the call returned by the previous `start`/`next`.
 */
export interface ScriptedAgent {
  readonly name: 'careful' | 'careless';
  readonly goal: string;
  start(): AgentStep;
  next(last: AgentObservation): AgentStep;
}

/** The item the scripted agents are after, and how many packets they want. */
export const TARGET_ID = 'bean-scarlet';
export const TARGET_PACKETS = 1;

/** The act both agents send, with the revision they decided on. */
export function reserveArgs(expectedRevision: string): Record<string, unknown> {
  return { op: 'act', action: 'reserve', id: TARGET_ID, packets: TARGET_PACKETS, expectedRevision };
}

export const QUERY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({ op: 'query' });

/** A tool result as an agent sees it. */
export function observationFromResult(result: ToolResult): AgentObservation {
  return { ok: result.details.ok, isError: false, text: result.content[0].text, details: result.details };
}

/** A blocked or malformed call as an agent sees it: an error, no details. */
export function errorObservation(text: string): AgentObservation {
  return { ok: false, isError: true, text };
}

const QueryItemSchema = z.looseObject({ id: z.string(), available: z.number(), reserved: z.number() });
const QueryDataSchema = z.looseObject({ items: z.array(QueryItemSchema) });

export type QueryItem = z.infer<typeof QueryItemSchema>;

/** The rows of a successful query's `details.data.items`, or undefined when there are none to read. */
export function queryItems(details: ToolDetails | undefined): readonly QueryItem[] | undefined {
  if (!details || !details.ok || details.scope !== 'query') return undefined;
  const parsed = QueryDataSchema.safeParse(details.data);
  return parsed.success ? parsed.data.items : undefined;
}

/** The refusal code of an answer, if it is a refusal with a known code. */
export function refusalCodeOf(observation: AgentObservation): RefusalCode | undefined {
  const details = observation.details;
  if (!details || details.ok) return undefined;
  return isRefusalCode(details.code) ? details.code : undefined;
}
