/**
 * A generated session for the graph demo: a main line of user / assistant / tool result / seed
 * desk entries, a side branch every `every` main-line entries (forked a few entries back, 1–8
 * entries long, one in three forking again), labels, another extension's entries and one corrupt snapshot. Seeded: same n, same
 * journal.
 */
import { FIXTURE_IDS } from '$domain/fixture';
import { asEntryId, asSessionId, seededIdSource, type EntryId } from '$domain/ids';
import {
  assistantMessageEntry,
  customEntry,
  labelEntry,
  sessionHeader,
  toolResultEntry,
  userMessageEntry,
  type JournalEntry,
} from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';

const WORDS = ['what to sow next in bed', 'reserve basil for the window box', 'beans along the fence', 'marigolds between the rows', 'check the desk before acting'];

export function demoJournal(total: number, leafOnBranch: boolean, every = 40): SessionJournal {
  const ids = seededIdSource(total + 7);
  const header = sessionHeader(asSessionId('demo-session'), ids.now(), '/demo');
  const entries: JournalEntry[] = [];
  let counter = 0;
  let random = 12345;
  const rand = (max: number) => {
    random = (random * 1103515245 + 12345) & 0x7fffffff;
    return random % max;
  };
  const nextId = (): EntryId => asEntryId((counter++).toString(16).padStart(8, '0'));
  const quantities: Record<string, number> = {};
  let agent = false;
  // The first side branch carries one corrupt snapshot, so the main line stays readable.
  let corruptNext = false;
  let branches = 0;
  const push = (make: (place: { id: EntryId; parentId: EntryId | null; timestamp: string }) => JournalEntry, parentId: EntryId | null): EntryId => {
    const entry = make({ id: nextId(), parentId, timestamp: ids.now() });
    entries.push(entry);
    return entry.id;
  };
  const deskChange = (place: { id: EntryId; parentId: EntryId | null; timestamp: string }, corrupt = false): JournalEntry => {
    const item = FIXTURE_IDS[rand(FIXTURE_IDS.length)] as string;
    const next = Math.max(0, Math.min(3, (quantities[item] ?? 0) + (rand(3) === 0 ? -1 : 1 + rand(2))));
    quantities[item] = next;
    if (rand(5) === 0) agent = !agent;
    return customEntry(SEED_DESK_CUSTOM_TYPE, corrupt ? { version: 1, agentEnabled: agent, quantities: { tomato: 2 } } : { version: 1, agentEnabled: agent, quantities: { ...quantities } }, place);
  };
  const step = (index: number, parentId: EntryId | null): EntryId => {
    const phase = index % 6;
    if (phase === 0) return push((place) => userMessageEntry(`${WORDS[rand(WORDS.length)]} ${index % 12}`, place), parentId);
    if (phase === 1) return push((place) => assistantMessageEntry([{ type: 'text', text: `Looking at the desk (${index})` }, { type: 'toolCall', id: `call-${index}`, name: 'seed_desk', arguments: {} }], place, 'toolUse'), parentId);
    if (phase === 2) {
      const corrupt = corruptNext;
      corruptNext = false;
      return push((place) => deskChange(place, corrupt), parentId);
    }
    if (phase === 3) return push((place) => toolResultEntry({ toolCallId: `call-${index}`, toolName: 'seed_desk', content: [{ type: 'text', text: 'Reserved.' }], details: null, isError: false }, place), parentId);
    if (phase === 4) return push((place) => assistantMessageEntry([{ type: 'text', text: `Done. Anything else? (${index})` }], place), parentId);
    return index % 18 === 5 ? push((place) => customEntry('notes-extension', { note: index }, place), parentId) : push((place) => userMessageEntry(`thanks ${index}`, place), parentId);
  };

  const main: EntryId[] = [];
  let tip: EntryId | null = null;
  let branchTip: EntryId | null = null;
  let sinceBranch = 0;
  while (entries.length < total) {
    const index = entries.length;
    if (sinceBranch >= every && main.length > 20) {
      // A side branch off an entry a little way back on the main line; sometimes a branch off it.
      sinceBranch = 0;
      corruptNext = branches++ === 1;
      const fork = main[main.length - 1 - Math.min(main.length - 1, 4 + rand(every))] as EntryId;
      let parent: EntryId = fork;
      let first: EntryId | null = null;
      const length = 1 + rand(8);
      for (let k = 0; k < Math.max(length, corruptNext ? 3 : 0) && entries.length < total; k++) {
        parent = step(k + 1, parent);
        first ??= parent;
      }
      corruptNext = false;
      branchTip = parent;
      if (first !== null && rand(3) === 0) {
        let sub: EntryId = first;
        for (let k = 0; k < 1 + rand(4) && entries.length < total; k++) sub = step(k, sub);
        branchTip = sub;
      }
      continue;
    }
    tip = step(index, tip);
    main.push(tip);
    sinceBranch++;
    if (index === 4) push((place) => labelEntry(main[0] as EntryId, 'start', place), tip);
  }
  const journal = SessionJournal.fromEntries(header, entries);
  journal.moveLeaf(leafOnBranch && branchTip !== null ? branchTip : tip);
  return journal;
}
