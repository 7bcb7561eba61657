/**
 * (j) Argument repairs (Bun): the real host's validateToolArguments and the worker's
 * checkArguments accept, repair and refuse the same seed_desk calls.
 */
import { isDeepStrictEqual } from 'node:util';
import { seedDeskJsonSchema } from '../domain/tool/jsonSchema';
import { checkArguments, type JsonSchema } from '../web/src/worker/omp/argumentCheck';
import { text, act, type CheckContext } from './checkKit';
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
        // Two quirks in one call: whitespace around a const/enum value and a coercion or an unknown key.
        { ...base, action: ' release ', packets: '2' }, { ...base, action: ' release ', packets: true }, { ...base, action: ' reserve ', packets: 1, extra: 1 },
        { op: ' query ', family: 5 }, { op: ' inspect ', id: 5 }, { op: 'inspect', id: 5, extra: 1 },
      ];
      const schema = seedDeskJsonSchema as JsonSchema;
      const branches = (schema['oneOf'] as JsonSchema[]).map((branch) => branch);
      const issuesOf = (message: string) => /^ {2}- root: must be (.*) \(was .*\)$/m.exec(message)?.[1] ?? null;
      const withoutIssues = (message: string) => message.replace(/^( {2}- root: must be ).*( \(was .*\))$/m, '$1…$2');
      const tally = { kept: 0, repaired: 0, refused: 0 };
      const known: string[] = [];
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
        if (real.ok && mine.ok) {
          if (!isDeepStrictEqual(mine.args, real.args)) differ.push(`${shown}: repaired differently\n    real host ${JSON.stringify(real.args)}\n    worker    ${JSON.stringify(mine.args)}`);
          else tally[isDeepStrictEqual(real.args, args) ? 'kept' : 'repaired']++;
          continue;
        }
        if (real.ok || mine.ok) continue;
        tally.refused++;
        if (mine.message === real.message) continue;
        // Allowed: the two list the issues of different oneOf branches, and nothing else differs.
        const realIssues = issuesOf(real.message);
        const branchIssues = branches.map((branch) => {
          const alone = checkArguments('seed_desk', branch, structuredClone(args));
          return alone.ok ? null : issuesOf(alone.message);
        });
        if (withoutIssues(mine.message) === withoutIssues(real.message) && realIssues !== null && branchIssues.includes(realIssues)) {
          known.push(`${shown}: real "${realIssues}", worker "${issuesOf(mine.message)}"`);
        } else {
          differ.push(`${shown}: the error texts differ beyond which oneOf branch is listed\n    real host ${JSON.stringify(real.message)}\n    worker    ${JSON.stringify(mine.message)}`);
        }
      }
      if (differ.length > 0) throw new Error(`${differ.length} of ${cases.length} calls judged differently:\n  ${differ.join('\n  ')}`);
      return [`${cases.length} calls judged alike: ${tally.kept} accepted as sent, ${tally.repaired} accepted after the same repair, ${tally.refused} refused with ${known.length === 0 ? 'the same text' : 'the same text but for the known difference'}`, ...(known.length ? [`known difference, only which oneOf branch's issues are listed: ${known.join('; ')}`] : [])].join('\n');
    } finally {
      await h.close();
    }
  });
}
