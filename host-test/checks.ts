/**
 * The lesson's observable behaviours, checked inside the real host (Bun), one check per behaviour,
 * each in its own sessions.
 */
import { agentLoopChecks } from './checksAgentLoop';
import { argumentChecks } from './checksArguments';
import { deskChecks } from './checksDesk';
import { hostChecks } from './checksHost';
import { modelTurnChecks } from './checksModelTurn';
import { providerChecks } from './checksProviders';
import { reimplementedChecks } from './checksReimplemented';
import type { CheckContext } from './checkKit';
import type { Checks } from './report';

export type { CheckContext } from './checkKit';

export async function behaviourChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await deskChecks(checks, ctx);
  await hostChecks(checks, ctx);
  await reimplementedChecks(checks, ctx);
  await argumentChecks(checks, ctx);
  await modelTurnChecks(checks, ctx);
  await providerChecks(checks, ctx);
  await agentLoopChecks(checks, ctx);
}
