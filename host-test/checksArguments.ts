/**
 * (j) Argument repairs (Bun): the real host's validateToolArguments and the worker's
 * checkArguments accept, repair and refuse the same seed_desk calls, with the same text; and a call
 * both accept whose fields do not fit its op is stopped by the tool's own check inside the real
 * host's agent-loop path, with the text the page's tool gives (domain/tool/opFields.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { seedDeskJsonSchema } from '../domain/tool/jsonSchema';
import { opFieldsProblem } from '../domain/tool/opFields';
import { SEED_DESK_OPS, type SeedDeskOp } from '../domain/tool/schema';
import { checkArguments, type JsonSchema } from '../web/src/worker/omp/argumentCheck';
import { type CheckContext } from './checkKit';
import { openSession } from './omp';
import type { Checks } from './report';

export async function argumentChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await checks.run("(j) argument repairs: the real host's validateToolArguments and the worker's checkArguments accept, repair and refuse the same seed_desk calls", async () => {
    const h = await openSession({ dir: ctx.dir('argument-repairs') });
    try {
      const base = { op: 'act', action: 'reserve', id: 'bean-scarlet', expectedRevision: 'x' };
      const cases: unknown[] = [
        { ...base, packets: 2 }, { ...base, packets: '2' }, { ...base, packets: ' 3 ' }, { ...base, packets: true }, { ...base, packets: false },
        { ...base, packets: 2.5 }, { ...base, packets: 'abc' }, { ...base, packets: null }, { ...base, packets: [2] }, { ...base, packets: { n: 2 } },
        { op: 'query', extra: 1 }, { ...base, packets: 1, extra: 1 }, { op: 'act', action: 'reserve', id: 'bean-scarlet' },
        { op: 'inspect' }, { op: 'nope' }, {}, { ...base, packets: 1, id: 5 }, { op: 'inspect', id: 5 }, { ...base, packets: 1, id: null },
        { op: 'query', family: null }, { op: 'query', family: 'null' }, { op: 'query', family: '' }, { op: 'query', family: 5 }, { op: 'query', family: ['bean'] },
        { op: ' query ' }, { ...base, packets: 1, action: 'Reserve' }, { ...base, packets: 1, action: ' release ' }, [1, 2], null, '{"op":"query"}', 'not json',
        { op: 'discover' }, { op: 'discover', extra: true }, { op: 'inspect', id: 'basil-genovese', packets: 1 },
        // Two quirks in one call: whitespace around an enum value and a coercion or an unknown key.
        { ...base, action: ' release ', packets: '2' }, { ...base, action: ' release ', packets: true }, { ...base, action: ' reserve ', packets: 1, extra: 1 },
        { op: ' query ', family: 5 }, { op: ' inspect ', id: 5 }, { op: 'inspect', id: 5, extra: 1 },
        // Several issues at once: listed in the schema's property order.
        { op: 'act', packets: 'abc', action: 'Reserve' }, { packets: 'abc' }, { packets: 'abc', op: 'nope', zzz: 1 }, { action: 'Reserve', op: 'Act' },
        // Fields the flat schema takes from any op: the tool's own check judges them.
        { op: 'discover', id: 'basil-genovese' }, { op: 'query', packets: 1 }, { ...base, packets: null },
      ];
      const schema = seedDeskJsonSchema as JsonSchema;
      const tally = { kept: 0, repaired: 0, refused: 0, toolChecked: 0 };
      const differ: string[] = [];
      const refusedAs = (message: string) => `refuses:\n      ${message.split('\n').join('\n      ')}`;
      for (const args of cases) {
        const real = await h.validate(args).then((value) => ({ ok: true as const, args: value }), (error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }));
        const mine = checkArguments('seed_desk', schema, structuredClone(args));
        const shown = JSON.stringify(args);
        if (mine.ok !== real.ok) {
          differ.push(`${shown}\n    real host ${real.ok ? `accepts as ${JSON.stringify(real.args)}` : refusedAs(real.message)}\n    worker ${mine.ok ? `accepts as ${JSON.stringify(mine.args)}` : refusedAs(mine.message)}`);
          continue;
        }
        if (!real.ok || !mine.ok) {
          tally.refused++;
          if (!real.ok && !mine.ok && mine.message !== real.message) differ.push(`${shown}: the error texts differ\n    real host ${JSON.stringify(real.message)}\n    worker    ${JSON.stringify(mine.message)}`);
          continue;
        }
        if (!isDeepStrictEqual(mine.args, real.args)) {
          differ.push(`${shown}: repaired differently\n    real host ${JSON.stringify(real.args)}\n    worker    ${JSON.stringify(mine.args)}`);
          continue;
        }
        tally[isDeepStrictEqual(real.args, args) ? 'kept' : 'repaired']++;
        // Past the host's check: the tool's own check runs in the extension's code, in the real host too.
        const passed = real.args as Record<string, unknown>;
        const problem = (SEED_DESK_OPS as readonly unknown[]).includes(passed['op']) ? opFieldsProblem(passed['op'] as SeedDeskOp, passed) : null;
        if (problem === null) continue;
        tally.toolChecked++;
        const called = await h.call(args);
        if (!called.isError || called.text !== problem) differ.push(`${shown}: the real host's tool answered ${JSON.stringify(called)}, the page's tool says ${JSON.stringify(problem)}`);
      }
      if (differ.length > 0) throw new Error(`${differ.length} of ${cases.length} calls judged differently:\n  ${differ.join('\n  ')}`);
      return `${cases.length} calls judged alike: ${tally.kept} accepted as sent, ${tally.repaired} accepted after the same repair, ${tally.refused} refused with the same text; ${tally.toolChecked} of the accepted stopped by the tool's own check with the page's text`;
    } finally {
      await h.close();
    }
  });
}
