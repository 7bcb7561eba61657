import { SEED_DESK_LINE_MARK } from '$domain/seedDeskType';
import { LessonSchema, type Lesson, type LessonAction } from './schema';

/**
 * The six lessons, as data. Each step's `checkpoint` names a predicate in `checkpoints.ts`;
 * its `doItForMe` must reach that checkpoint from the state the steps before it leave (for the
 * first step: the lesson's `setup`, which runs after the runner has opened a new session).
 *
 * Every setup starts by putting the page switches back (UI on, no user approval policy, approval
 * mode yolo: the host's defaults): they belong to the host, not to the session, so a previous
 * lesson may have left them changed.
 */

const SWITCHES_BACK: LessonAction[] = [
  { do: 'interactive', value: true },
  { do: 'policy', value: null },
  { do: 'approval-mode', value: 'yolo' },
];

const confirmed = (text: string): LessonAction[] => [{ do: 'line', text }, { do: 'confirm' }];

const RAW_LESSONS: unknown[] = [
  {
    id: 'human-reservation',
    title: 'A reservation you confirm',
    summary:
      'Hold a few fictional basil packets by hand. You will see that Cancel leaves no trace, that Confirm writes one entry, and that a bean decision which went out of date while its dialog waited is turned away.',
    setup: [...SWITCHES_BACK],
    steps: [
      {
        id: 'query-desk',
        title: 'Look at the desk',
        instruction: 'In the command line, type `/seeds query` and press Enter.',
        why: 'The answer lists each seed with its free and held packets on this branch, and ends with a revision: the name of the exact desk you just looked at. Every change is later checked against the revision it was decided on.',
        expected: 'basil-genovese: 8 available, 0 reserved, and a last line `revision: …:root`.',
        checkpoint: 'query-desk',
        doItForMe: [{ do: 'line', text: '/seeds query' }],
      },
      {
        id: 'cancel-before-commit',
        title: 'Ask, then change your mind',
        instruction: 'Type `/seeds reserve basil-genovese 2`. A dialog asks whether you mean it: press Cancel.',
        why: 'Until you press Confirm nothing is written. The journal gains no line, the numbers stay put and so does the revision.',
        expected: 'The dialog closes with "Cancelled"; basil still shows 0 reserved.',
        checkpoint: 'cancel-before-commit',
        doItForMe: [{ do: 'line', text: '/seeds reserve basil-genovese 2' }, { do: 'cancel' }],
      },
      {
        id: 'confirm-reservation',
        title: 'Reserve for real',
        instruction: 'Run `/seeds reserve basil-genovese 2` once more, and this time press Confirm.',
        why: 'Confirming appends one seed desk state entry. The desk table, the status line and the revision are all worked out again from that entry.',
        expected: 'basil-genovese: 6 available, 2 reserved, under a new revision.',
        checkpoint: 'confirm-reservation',
        doItForMe: confirmed('/seeds reserve basil-genovese 2'),
      },
      {
        id: 'race-refused',
        title: 'Something changes while you decide',
        instruction:
          'Type `/seeds reserve bean-scarlet 2` and leave the dialog open. While it waits, press "Meanwhile: move to the previous entry": a move in the session tree takes the leaf back to before your basil reservation. (Or press "Meanwhile: reserve 1 marigold-french", another action on another seed.) Only then press Confirm.',
        why: 'A dialog is a wait, and the branch can change during it. After you answer, the desk checks again: your bean decision was made on a revision that is no longer the branch head, so it is refused instead of being applied to a desk you never saw. Basil is not part of this race; nothing touches it.',
        expected: 'Refused with `stale-revision`; bean-scarlet stays at 0 reserved; the journal gains no seed desk entry from your Confirm.',
        checkpoint: 'race-refused',
        doItForMe: [{ do: 'line', text: '/seeds reserve bean-scarlet 2' }, { do: 'meanwhile-step-back' }, { do: 'confirm' }],
      },
      {
        id: 'basil-exercise',
        title: 'Exercise: reserve two, cancel a release',
        instruction:
          'Stand where basil holds none — after the tree move you are there (if the desk still shows your 2 basil, select the first entry in the Session tree and press "Branch from here"). Reserve two basil packets with `/seeds reserve basil-genovese 2` and Confirm. Then ask to give one back with `/seeds release basil-genovese 1` and press Cancel.',
        why: 'A cancelled release is not a smaller change; it is no change at all. Only a confirmed release would lower the count, so the two you just reserved are still held.',
        expected: '`basil-genovese: 6 available, 2 reserved` — exactly.',
        checkpoint: 'basil-exercise',
        doItForMe: [...confirmed('/seeds reserve basil-genovese 2'), { do: 'line', text: '/seeds release basil-genovese 1' }, { do: 'cancel' }],
      },
    ],
  },
  {
    id: 'agent-grant',
    title: 'Let the agent act, within limits',
    summary:
      'Give the agent one narrow permission, then play the model yourself: read the desk, act with the revision you read, and meet the refusals that keep the desk honest.',
    setup: [...SWITCHES_BACK],
    steps: [
      {
        id: 'act-before-grant',
        title: 'Act before anyone allowed it',
        instruction:
          'In the "Tool call: seed_desk" panel you play the model. Call `{"op":"query"}`, then try to reserve one bean with the revision it returned: `{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"…"}` ("Use latest revision" fills it in).',
        why: 'Reading is always open, but act needs a permission that only a person can give. Without it the desk answers with a refusal and writes nothing.',
        expected: 'details.ok: false with code `agent-disabled`; no new seed desk entry.',
        checkpoint: 'act-before-grant',
        doItForMe: [
          { do: 'tool', args: { op: 'query' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'grant-agent',
        title: 'Grant the permission',
        instruction: 'Type `/seeds agent on` and confirm. Only you can do this: the tool has no operation that switches itself on.',
        why: 'The grant is saved on this branch the same way a reservation is, so it gets a revision, and branches made later inherit it.',
        expected: 'The status line says agent on.',
        checkpoint: 'grant-agent',
        doItForMe: confirmed('/seeds agent on'),
      },
      {
        id: 'tool-discover',
        title: 'Ask the tool what it offers',
        instruction: 'Put `{"op":"discover"}` in the arguments ("Preset: discover" does it) and press "Call seed_desk".',
        why: 'discover lists the four operations and what act needs before it will change anything, so a model does not have to guess.',
        expected: 'details.ok: true, scope `discover`, and the current revision.',
        checkpoint: 'tool-discover',
        doItForMe: [{ do: 'tool', args: { op: 'discover' } }],
      },
      {
        id: 'tool-query-inspect',
        title: 'Read before you write',
        instruction: 'Call `{"op":"query"}` to see every item and the revision, then `{"op":"inspect","id":"basil-genovese"}` to look at one item. Ids must match exactly.',
        why: 'A model should act only on ids and numbers the desk itself handed back. Reading changes nothing, so the revision does not move.',
        expected: 'Both answers have details.ok: true and the same revision.',
        checkpoint: 'tool-query-inspect',
        doItForMe: [
          { do: 'tool', args: { op: 'query' } },
          { do: 'tool', args: { op: 'inspect', id: 'basil-genovese' } },
        ],
      },
      {
        id: 'careful-act',
        title: 'Act on what you just read',
        instruction:
          'Query again, then reserve one bean packet with the revision that query gave you: `{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"…"}`. "Use latest revision" copies it in.',
        why: 'The revision you send says "I decided this while looking at that desk". If the desk has moved since, the act is refused rather than landing on numbers you never saw.',
        expected: 'Reserved 1 bean-scarlet, and the result carries a new revision.',
        checkpoint: 'careful-act',
        doItForMe: [
          { do: 'tool', args: { op: 'query' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'stale-reuse',
        title: 'Send the old revision again',
        instruction: 'Send the same reserve once more, but with the revision from the query you made BEFORE the act — not the new one the act returned.',
        why: 'Your act created a new revision, so the old one now describes a desk that is gone. The desk says so with a refusal; it does not quietly hold a second packet.',
        expected: 'details.ok: false with code `stale-revision`; bean-scarlet still holds 1; no new seed desk entry.',
        checkpoint: 'stale-reuse',
        doItForMe: [{ do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$previous' } }],
      },
      {
        id: 'tool-refusals',
        title: 'Three more refusals',
        instruction:
          'Through seed_desk, provoke each of these with an act on the latest revision: an id the desk does not have (say "basil"), a count of 0 packets, and 4 marigolds when only 3 exist.',
        why: 'A refusal is an ordinary answer: details.ok is false, a code says why, and nothing is written. A careful caller reads the code and chooses its next move from it.',
        expected: '`invalid-target`, `invalid-quantity` and `insufficient-availability`, each with details.ok: false and no new seed desk entry.',
        checkpoint: 'tool-refusals',
        doItForMe: [
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'basil', packets: 1, expectedRevision: '$latest' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'basil-genovese', packets: 0, expectedRevision: '$latest' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'marigold-french', packets: 4, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'excess-release',
        title: 'Give back more than you hold',
        instruction:
          'This branch holds 1 bean. Ask to release 2, twice: as the model, with `{"op":"act","action":"release","id":"bean-scarlet","packets":2,"expectedRevision":"…"}` on the latest revision, and as yourself, with `/seeds release bean-scarlet 2`.',
        why: 'A release can only return what this branch holds. Both paths meet the same rule and the same refusal; the command is turned away before any dialog opens.',
        expected: '`insufficient-reservation` from the tool and from the command; bean-scarlet still holds 1.',
        checkpoint: 'excess-release',
        doItForMe: [
          { do: 'tool', args: { op: 'act', action: 'release', id: 'bean-scarlet', packets: 2, expectedRevision: '$latest' } },
          { do: 'line', text: '/seeds release bean-scarlet 2' },
        ],
      },
    ],
  },
  {
    id: 'branch-reconstruction',
    title: 'The desk follows your branch',
    summary:
      'The desk is rebuilt from the branch you stand on, never from the whole file. Reopen the session, step back before a reservation, reserve something else there, and see which positions a reopen keeps.',
    setup: [
      ...SWITCHES_BACK,
      { do: 'line', text: "Let's plan the spring herb bed." },
      ...confirmed('/seeds agent on'),
      ...confirmed('/seeds reserve basil-genovese 2'),
    ],
    steps: [
      {
        id: 'journal-filter',
        title: 'Find the state entries',
        instruction: `In the Journal panel, type \`${SEED_DESK_LINE_MARK}\` into "Filter journal" (or press "Only seed desk entries").`,
        why: 'Every confirmed change is one JSON line of this custom type: here the grant and the 2-basil reservation. Conversation lines sit in the same file but never touch the desk.',
        expected: 'Two matching lines.',
        checkpoint: 'journal-filter',
        doItForMe: [{ do: 'filter-journal', text: SEED_DESK_LINE_MARK }],
      },
      {
        id: 'reopen-survives',
        title: 'Close and open again',
        instruction: 'Run `/seeds query` and note the revision. Press "Reopen session" to load the session back from storage, then query again.',
        why: 'The desk is rebuilt from the stored entries, so the reservation and its revision come back as they were. After a reopen, ask the desk rather than trusting your memory.',
        expected: 'basil-genovese: 6 available, 2 reserved, with the same revision before and after.',
        checkpoint: 'reopen-survives',
        doItForMe: [{ do: 'line', text: '/seeds query' }, { do: 'reopen' }, { do: 'line', text: '/seeds query' }],
      },
      {
        id: 'plain-move-not-kept',
        title: 'A move alone is not kept',
        instruction:
          'In the Session tree, select the agent grant (the entry just above the basil reservation) and press "Branch from here": basil shows 0 there. Add nothing. Press "Reopen session".',
        why: 'Moving the leaf writes nothing to the journal. A reopen rebuilds the position from what was appended, so it lands on the last appended entry — your 2 basil — and the notice says your move did not survive.',
        expected: 'After the reopen: the leaf is back on the basil reservation; basil-genovese 6 available, 2 reserved.',
        checkpoint: 'plain-move-not-kept',
        doItForMe: [{ do: 'branch-before-last-reservation' }, { do: 'reopen' }],
      },
      {
        id: 'rewind-before-reservation',
        title: 'Step back before the reservation',
        instruction: 'Select the agent grant again and press "Branch from here".',
        why: 'Only the leaf moved; nothing was deleted. At this point of the conversation basil has 0 reserved, while the reservation still exists further down its own branch.',
        expected: 'basil-genovese 0 reserved here; the tree still shows the reservation.',
        checkpoint: 'rewind-before-reservation',
        doItForMe: [{ do: 'branch-before-last-reservation' }],
      },
      {
        id: 'sibling-reservation',
        title: 'Choose differently here',
        instruction: 'Type `/seeds reserve basil-genovese 1` and confirm.',
        why: 'The new entry hangs off the earlier point, so the tree forks: this branch holds 1 basil while the first branch still holds 2.',
        expected: 'basil-genovese: 7 available, 1 reserved; a fork in the Session tree.',
        checkpoint: 'sibling-reservation',
        doItForMe: confirmed('/seeds reserve basil-genovese 1'),
      },
      {
        id: 'written-branch-kept',
        title: 'A branch you wrote into is kept',
        instruction: 'Press "Reopen session" once more.',
        why: 'This time something was appended where you stand, so the newest entry of the session is on this branch, and that is exactly where a reopen puts the leaf.',
        expected: 'The leaf stays on your 1-basil reservation: basil-genovese 7 available, 1 reserved.',
        checkpoint: 'written-branch-kept',
        doItForMe: [{ do: 'reopen' }],
      },
      {
        id: 'sibling-token-refused',
        title: "A sibling's revision is no good here",
        instruction:
          'In the Session tree, select the first 2-basil reservation (off your branch) and press "Compare with selected". Then press "Try an act here with the other branch\'s revision".',
        why: 'A revision names one entry on one branch. A token from the sibling says nothing about the desk you stand on, so it is refused.',
        expected: 'Side by side: 1 basil here, 2 there. The attempt is refused with `stale-revision` and writes no seed desk entry.',
        checkpoint: 'sibling-token-refused',
        doItForMe: [{ do: 'compare-with-other-branch' }, { do: 'try-other-revision' }],
      },
      {
        id: 'corrupt-branch',
        title: 'A broken snapshot stops the desk',
        instruction:
          'In the Refusals panel press "Try it: corrupt-state": it appends a snapshot that holds 99 basil of 8. Run `/seeds query` yourself. Then press "Step back past the invalid entry" and query again.',
        why: 'The desk checks every state entry on the branch and does not skip a bad one to trust a later one. On a damaged branch it refuses everything; the way out is an earlier, valid point.',
        expected: 'The first query is refused with `corrupt-state` and writes nothing; after the step back the desk answers again.',
        checkpoint: 'corrupt-branch',
        doItForMe: [{ do: 'corrupt-demo' }, { do: 'line', text: '/seeds query' }, { do: 'step-back' }, { do: 'line', text: '/seeds query' }],
      },
      {
        id: 'fresh-session',
        title: 'A new session starts empty',
        instruction: 'Press "New session" in the Sessions panel, then run `/seeds query`.',
        why: 'A new session has its own identity and an empty journal: nothing is held, the agent is off, and the revision ends in `:root`. Nothing is carried over from the old one.',
        expected: 'Every item 0 reserved; the status line says agent off.',
        checkpoint: 'fresh-session',
        doItForMe: [{ do: 'new-session' }, { do: 'line', text: '/seeds query' }],
      },
    ],
  },
  {
    id: 'revoke-headless',
    title: 'Taking permission back, and running without a screen',
    summary:
      'Switch the agent off on purpose, then act like a host with no interactive UI: see what it refuses, what it still answers, and how the stored grant and the host approval are two separate gates.',
    setup: [...SWITCHES_BACK],
    steps: [
      {
        id: 'revoke-agent',
        title: 'On, then deliberately off',
        instruction: 'Switch the agent on (`/seeds agent on`, Confirm), then off again with `/seeds agent off` and Confirm.',
        why: 'Taking permission back is a change like any other: you are asked first, and a new state entry is written, so the revision moves.',
        expected: 'Agent off; two new seed desk entries in the journal.',
        checkpoint: 'revoke-agent',
        doItForMe: [...confirmed('/seeds agent on'), ...confirmed('/seeds agent off')],
      },
      {
        id: 'act-after-revoke',
        title: 'The revoked agent is turned away',
        instruction: 'Play the model: call `{"op":"query"}`, then reserve one bean with the revision it returned.',
        why: 'The host runs the call without asking (approval mode yolo), but the desk itself checks the grant you just took back and refuses. Two gates, two owners: the host decides whether the call runs, the desk whether it may change anything.',
        expected: 'details.ok: false with code `agent-disabled`; no new seed desk entry.',
        checkpoint: 'act-after-revoke',
        doItForMe: [
          { do: 'tool', args: { op: 'query' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'headless-ui-required',
        title: 'No screen, no grant',
        instruction: 'Untick "Interactive UI" to play a host without a screen. Type `/seeds agent on`, then `/seeds query`.',
        why: 'With no UI, no dialog can ask you, so the grant is refused with ui-required before anything happens. Reading needs no confirmation and still answers.',
        expected: '`/seeds agent on` is refused (`ui-required`) and writes nothing; `/seeds query` shows the desk.',
        checkpoint: 'headless-ui-required',
        doItForMe: [
          { do: 'interactive', value: false },
          { do: 'line', text: '/seeds agent on' },
          { do: 'line', text: '/seeds query' },
        ],
      },
      {
        id: 'headless-reopen-grant',
        title: 'A stored grant outlives the screen',
        instruction: 'Tick "Interactive UI" again, run `/seeds agent on` and Confirm. Then untick "Interactive UI" and press "Reopen session".',
        why: 'The grant lives in the journal, so it is back after a headless reopen — even though, headless, nobody could grant it.',
        expected: 'After the reopen: agent on, Interactive UI unticked.',
        checkpoint: 'headless-reopen-grant',
        doItForMe: [
          { do: 'interactive', value: true },
          ...confirmed('/seeds agent on'),
          { do: 'interactive', value: false },
          { do: 'reopen' },
        ],
      },
      {
        id: 'headless-revoke-refused',
        title: 'No screen, no revoke either',
        instruction: 'Still headless, type `/seeds agent off`.',
        why: 'Revoking needs a confirmation too, so without a UI it is refused just like the grant was. The stored grant stays on: headless, nobody can take it back.',
        expected: '`/seeds agent off` is refused with `ui-required`; the status line still says agent on; no new seed desk entry.',
        checkpoint: 'headless-revoke-refused',
        doItForMe: [{ do: 'line', text: '/seeds agent off' }],
      },
      {
        id: 'headless-tool-allow',
        title: 'The tool still acts',
        instruction:
          'Keep the UI off, "Host approval for seed_desk" on not set and "Approval mode" on yolo. Call `{"op":"query"}`, then reserve 1 bean-scarlet with the revision it returned.',
        why: 'seed_desk is declared at the write tier, and yolo runs every tier without a prompt, so the host lets the call through with nobody watching; the stored grant lets act change the desk.',
        expected: 'Reserved 1 bean-scarlet while headless; the host approval came from the mode.',
        checkpoint: 'headless-tool-allow',
        doItForMe: [
          { do: 'tool', args: { op: 'query' } },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'headless-prompt-fails-closed',
        title: 'Nobody to ask, so no',
        instruction: 'Set "Approval mode" to always-ask and call seed_desk again, for example the same act with the latest revision.',
        why: 'always-ask runs only read-tier tools unasked, so this write-tier call needs a person. With no UI there is no one to ask, and the host blocks the call instead of letting it through: it fails closed.',
        expected: 'The host answers `Tool "seed_desk" requires approval but no interactive UI available.`; the desk does not change.',
        checkpoint: 'headless-prompt-fails-closed',
        doItForMe: [
          { do: 'approval-mode', value: 'always-ask' },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
        ],
      },
      {
        id: 'mode-vs-grant',
        title: 'Mode and grant are different gates',
        instruction: 'Tick "Interactive UI". With "Approval mode" still on always-ask, call the same act again. The host asks first: press Deny.',
        why: 'The agent grant is on, yet the call never reaches the desk: the approval mode belongs to the host and is decided before the extension runs, while your grant only tells the desk whether act may change state. Earlier, yolo let a call run that the desk then refused; now the host stops one the desk would have allowed.',
        expected: '`Tool call denied by user: seed_desk`; agent still on; bean-scarlet unchanged.',
        checkpoint: 'mode-vs-grant',
        doItForMe: [
          { do: 'interactive', value: true },
          { do: 'tool', args: { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$latest' } },
          { do: 'deny' },
        ],
      },
    ],
  },
  {
    id: 'persistence-limits',
    title: 'What a change does and does not promise',
    summary:
      'Where the line between "nothing happened" and "it happened" lies, when a real host writes its file, what the model does and does not see, and what a failed write does to the session.',
    setup: [...SWITCHES_BACK],
    steps: [
      {
        id: 'cancel-changes-nothing',
        title: 'Cancelled means untouched',
        instruction: 'Type `/seeds reserve marigold-french 1`, press Cancel, then run `/seeds query`.',
        why: 'Before Confirm a cancel leaves everything exactly as it was: no new journal line, the same numbers, the same revision.',
        expected: 'marigold-french: 3 available, 0 reserved; the revision unchanged.',
        checkpoint: 'cancel-changes-nothing',
        doItForMe: [{ do: 'line', text: '/seeds reserve marigold-french 1' }, { do: 'cancel' }, { do: 'line', text: '/seeds query' }],
      },
      {
        id: 'query-after-commit',
        title: 'Committed means kept',
        instruction: 'Reserve again with `/seeds reserve marigold-french 1` and Confirm. The dialog is gone now, Cancel with it. Run `/seeds query` before deciding anything else.',
        why: 'Once committed, a change stays; the only way back is a new change, a release. When unsure whether something went through, read the desk instead of sending the command again.',
        expected: 'marigold-french: 2 available, 1 reserved.',
        checkpoint: 'query-after-commit',
        doItForMe: [...confirmed('/seeds reserve marigold-french 1'), { do: 'line', text: '/seeds query' }],
      },
      {
        id: 'persistence-gate',
        title: 'Not on disk yet',
        instruction:
          'Read the "Host file" note in the Journal panel: your reservation is in this journal, but a real host has not written its session file yet. Call `{"op":"query"}` in the tool panel and read the note again.',
        why: 'The host keeps a new session in memory until it holds an assistant message. A tool call is recorded as one, so only now would the file appear on disk, with every earlier entry in it.',
        expected: 'The note changes from "not written yet" to "written"; the seed desk entry sits before the first assistant message.',
        checkpoint: 'persistence-gate',
        doItForMe: [{ do: 'tool', args: { op: 'query' } }],
      },
      {
        id: 'events-start-nothing',
        title: 'An event is news, not a task',
        instruction: 'Give the packet back with `/seeds release marigold-french 1` and Confirm. Watch the status line and the Event log, then the Active branch.',
        why: 'The change emits a `workbook:seed-desk:changed` event and refreshes the status line, but neither one starts an agent turn: no tool call follows unless someone makes one.',
        expected: 'A new event carrying the new revision; the branch ends with the seed desk entry.',
        checkpoint: 'events-start-nothing',
        doItForMe: confirmed('/seeds release marigold-french 1'),
      },
      {
        id: 'append-no-receipt',
        title: 'State the model never reads',
        instruction: 'Reserve one marigold again (`/seeds reserve marigold-french 1`, Confirm) and find the new entry in the Active branch.',
        why: 'A seed desk entry is a custom record: the host keeps it beside the conversation but never replays it to the model, and appending it hands back no receipt. The desk learns its new revision by reading the branch again.',
        expected: 'The new seed desk entry is marked "not sent to the model"; the messages around it are not.',
        checkpoint: 'append-no-receipt',
        doItForMe: confirmed('/seeds reserve marigold-french 1'),
      },
      {
        id: 'render-result-presentation',
        title: 'What a picture of the result is not',
        instruction: 'Call `{"op":"inspect","id":"marigold-french"}` and compare the three views of its result in the tool panel: "Rendered result", "Text the model sees" and "Structured details".',
        why: 'The rendered card is drawn for people and changes nothing the model gets. The details are structured extras that a host may never pass on: anything the model must know belongs in the text.',
        expected: 'All three show the inspect result; only the text is sure to reach a model.',
        checkpoint: 'render-result-presentation',
        doItForMe: [{ do: 'tool', args: { op: 'inspect', id: 'marigold-french' } }],
      },
      {
        id: 'gates-spare-other-code',
        title: 'A blocked tool is not a stopped extension',
        instruction:
          'Set "Host approval for seed_desk" to deny and call `{"op":"query"}`: the host blocks it. Now run `/seeds reserve marigold-french 1` and Confirm.',
        why: 'Approval guards the tool call and nothing else. The same extension\'s command, its events and any other code keep running; they are limited only by what they check themselves.',
        expected: 'The tool call is blocked by user policy; the command still reserves: marigold-french 1 more reserved.',
        checkpoint: 'gates-spare-other-code',
        doItForMe: [{ do: 'policy', value: 'deny' }, { do: 'tool', args: { op: 'query' } }, ...confirmed('/seeds reserve marigold-french 1')],
      },
      {
        id: 'storage-failure-latch',
        title: 'When storage fails',
        instruction:
          'Open "Fault injection" and press "Fail the next write". Run `/seeds reserve bean-scarlet 1` and Confirm: storage fails. Try the same again: writes are now stopped. Then press "Reopen session".',
        why: 'A failed write is reported, never hidden, and the session takes no more writes until it is reopened, so nothing piles up on top of a journal in an unknown state.',
        expected: 'Two failures, then the alert clears after the reopen; bean-scarlet still 0 reserved.',
        checkpoint: 'storage-failure-latch',
        doItForMe: [
          { do: 'fail-next-write' },
          ...confirmed('/seeds reserve bean-scarlet 1'),
          ...confirmed('/seeds reserve bean-scarlet 1'),
          { do: 'reopen' },
        ],
      },
    ],
  },
  {
    id: 'closing-question',
    title: 'Two tabs, one question',
    summary:
      'Hold every marigold, let another tab do the same on a branch of its own, add the two up, and decide whether this journal could be a real stock database.',
    setup: [
      ...SWITCHES_BACK,
      { do: 'line', text: 'Marigolds along the path, basil by the kitchen window.' },
      ...confirmed('/seeds reserve basil-genovese 1'),
    ],
    steps: [
      {
        id: 'reserve-all-marigolds',
        title: 'Take every marigold',
        instruction: 'Reserve all three marigolds: `/seeds reserve marigold-french 3`, then Confirm.',
        why: 'On this branch the marigolds are now fully held, with none left over.',
        expected: 'marigold-french: 0 available, 3 reserved.',
        checkpoint: 'reserve-all-marigolds',
        doItForMe: confirmed('/seeds reserve marigold-french 3'),
      },
      {
        id: 'other-tab-reserves',
        title: 'Another tab wants them too',
        instruction:
          'A second tab, opened before your reservation, reserves marigolds as well. Press "Do it for me" to play it — or open the playground in another tab, select the basil entry just above your marigold reservation in its Session tree, press "Branch from here", and reserve 3 marigolds there.',
        why: 'That tab stood on an older point, where its desk still showed 3 free. Its reservation is valid on its branch; each tab is right about its own branch, and neither sees the other.',
        expected: 'A new seed desk entry on another branch; this branch still holds your 3.',
        checkpoint: 'other-tab-reserves',
        doItForMe: [{ do: 'twin-tab' }],
      },
      {
        id: 'compare-overbooked',
        title: 'Add them up',
        instruction: "In the Session tree, select the other tab's marigold reservation and press \"Compare with selected\".",
        why: 'The table "Reserved across both branches" sums the two desks. Look at the marigold line before you answer the last question.',
        expected: 'marigold-french: 6 reserved across both branches, of 3 packets.',
        checkpoint: 'compare-overbooked',
        doItForMe: [{ do: 'compare-with-other-branch' }],
      },
      {
        id: 'closing-answer',
        title: 'The closing question',
        instruction: 'Should a real multi-user seed library use this journal as its stock database? Answer with Yes or No under "The closing question", below the playground.',
        why: 'Decide first: the explanation opens only once you have answered.',
        expected: 'Your answer, followed by the explanation.',
        checkpoint: 'closing-answer',
        doItForMe: [{ do: 'closing-answer', value: 'no' }],
      },
    ],
  },
];

function describe(raw: unknown, path: readonly PropertyKey[]): string {
  const lesson = raw as { id?: unknown; steps?: { id?: unknown }[] } | null;
  const lessonName = typeof lesson?.id === 'string' ? `lesson "${lesson.id}"` : 'a lesson without an id';
  if (path[0] !== 'steps' || typeof path[1] !== 'number') return lessonName;
  const step = lesson?.steps?.[path[1]];
  return `${lessonName}, step ${typeof step?.id === 'string' ? `"${step.id}"` : `#${path[1] + 1}`}`;
}

/** Validates every lesson once, at load: a broken lesson is a build-time bug, named precisely. */
export function validateLessons(raws: readonly unknown[]): Lesson[] {
  const seen = new Set<string>();
  return raws.map((raw) => {
    const parsed = LessonSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = describe(raw, issue?.path ?? []);
      throw new Error(`Invalid ${where}: ${issue?.path.join('.') ?? '(root)'}: ${issue?.message ?? 'does not match LessonSchema'}`);
    }
    for (const step of parsed.data.steps) {
      if (seen.has(step.id)) throw new Error(`Invalid lesson "${parsed.data.id}", step "${step.id}": the step id is used twice (progress is stored by step id).`);
      seen.add(step.id);
    }
    return parsed.data;
  });
}

export const LESSONS: readonly Lesson[] = Object.freeze(validateLessons(RAW_LESSONS));
