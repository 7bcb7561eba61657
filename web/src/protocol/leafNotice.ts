import type { LeafBehind } from './messages';

/**
 * What to tell the learner when a reopen (or a reload) put the leaf somewhere else than where
 * they stood. The host reopens on the last appended entry; the sentence names why that is not
 * where they were: their own move appended nothing, and/or another tab appended since.
 */
export function leafReturnNotice(when: 'reopen' | 'reload', behind: LeafBehind, from: string | null, to: string | null): string {
  const opening = `${when === 'reopen' ? 'Reopened' : 'After the reload'}: the leaf is on the last appended entry (${to ?? 'none'}), not on ${from ?? 'the start of the session'} where you stood.`;
  const reasons: string[] = [];
  if (behind.foreignEntryId !== null) reasons.push(`Another tab appended ${behind.foreignEntryId} after that, so it is now the last entry of the session.`);
  if (behind.navigated) reasons.push(`Your move to ${from ?? 'the start of the session'} appended nothing, so it did not survive.`);
  if (reasons.length === 0) reasons.push('Nothing was appended where you stood.');
  return [opening, ...reasons].join(' ');
}
