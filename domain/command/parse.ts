import type { ReservationAction } from '../humanChange';

export const SEEDS_USAGE = [
  'Usage:',
  '  /seeds query [family]',
  '  /seeds reserve <id> <packets>',
  '  /seeds release <id> <packets>',
  '  /seeds agent on|off',
].join('\n');

export type SeedsCommand =
  | { readonly kind: 'query'; readonly family?: string }
  | { readonly kind: 'reservation'; readonly action: ReservationAction; readonly id: string; readonly packets: number | string; readonly packetsText: string }
  | { readonly kind: 'grant'; readonly enabled: boolean }
  | { readonly kind: 'usage'; readonly message: string };

/** Split a line into `/name` and the raw remainder after the first space, as the host does. */
export function splitSlashCommand(line: string): { name: string; args: string } | null {
  if (!line.startsWith('/')) return null;
  const space = line.indexOf(' ');
  return space === -1 ? { name: line.slice(1), args: '' } : { name: line.slice(1, space), args: line.slice(space + 1) };
}

/**
 * A count written as plain digits becomes a number; anything else (`1.5`, `-1`, `+1`, `1e3`,
 * `abc`) is passed on as the text it was, so the domain, not the parser, refuses it with
 * invalid-quantity and can quote it: the command and the tool share one judge.
 */
function toCount(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : text;
}

const usage = (problem: string): SeedsCommand => ({ kind: 'usage', message: `${problem}\n${SEEDS_USAGE}` });

/** Parses the arguments of `/seeds` (everything after `/seeds `). Never throws. */
export function parseSeedsArgs(args: string): SeedsCommand {
  const words = args.trim().split(/\s+/).filter((word) => word.length > 0);
  const [sub, ...rest] = words;
  switch (sub) {
    case undefined:
      return usage('/seeds needs a subcommand.');
    case 'query':
      if (rest.length > 1) return usage('/seeds query takes at most one family.');
      return rest[0] === undefined ? { kind: 'query' } : { kind: 'query', family: rest[0] };
    case 'reserve':
    case 'release': {
      const [id, count] = rest;
      if (id === undefined || count === undefined || rest.length !== 2) return usage(`/seeds ${sub} needs an id and a packet count.`);
      return { kind: 'reservation', action: sub, id, packets: toCount(count), packetsText: count };
    }
    case 'agent':
      if (rest.length === 1 && (rest[0] === 'on' || rest[0] === 'off')) return { kind: 'grant', enabled: rest[0] === 'on' };
      return usage('/seeds agent takes exactly one word: on or off.');
    default:
      return usage(`Unknown subcommand "${sub}".`);
  }
}
