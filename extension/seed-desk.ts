/**
 * The Seed Desk extension for the real OMP coding agent, built from the playground's own domain:
 * the same parser, decisions, reconstruction, texts and tool planner, bundled into one ES module
 * by `npm run build:extension`. Install: copy extension/dist/seed-desk.js into ~/.omp/agent/extensions/.
 */
import { SEEDS_USAGE } from '../domain/command/parse';
import { seedsCommand } from './command';
import { showStatus } from './deskState';
import type { ExtensionAPI } from './ompApi';
import { seedDeskTool } from './tool';

export default function seedDesk(pi: ExtensionAPI): void {
  pi.registerCommand('seeds', {
    description: `Reserve fictional seed packets on this branch (${SEEDS_USAGE.split('\n').slice(1).map((line) => line.trim()).join('; ')})`,
    handler: seedsCommand(pi),
  });
  pi.registerTool(seedDeskTool(pi));
  // The desk belongs to the branch: whenever the branch may have changed, show its status again.
  for (const event of ['session_start', 'session_switch', 'session_branch', 'session_tree'] as const) {
    pi.on(event, (_event, ctx) => showStatus(ctx));
  }
}
