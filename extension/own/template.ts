/**
 * My extension: one note per branch.
 *
 * A starting point for an OMP extension of your own. It keeps its state (a short note) in custom
 * entries on the session, and rebuilds its copy from the active branch whenever the branch can
 * have changed: when the session opens, after a switch or a fork, and after a move in the tree.
 * So each branch keeps the note written on it, and a reopened session gets its note back.
 *
 * Try it: `/note sow the beans`, fork the conversation, `/note sow the peas`, then switch back.
 */
import type { ExtensionAPI, ExtensionContext } from "@oh-my-pi/pi-coding-agent";

/** The custom entry's type: the journal keeps one entry per change of the note. */
const NOTE_ENTRY = "my-note";

interface NoteData {
	text: string;
}

export default function myExtension(pi: ExtensionAPI) {
	// A copy of the active branch's note, never the truth: rebuild() reads the truth from the branch.
	let note = "";

	function rebuild(ctx: ExtensionContext) {
		note = "";
		for (const entry of ctx.sessionManager.getBranch()) {
			if (entry.type === "custom" && entry.customType === NOTE_ENTRY) {
				note = (entry.data as NoteData).text;
			}
		}
		ctx.ui.setStatus("my-note", note ? `Note: ${note}` : "No note on this branch");
	}

	pi.on("session_start", async (_event, ctx) => rebuild(ctx));
	pi.on("session_switch", async (_event, ctx) => rebuild(ctx));
	pi.on("session_branch", async (_event, ctx) => rebuild(ctx));
	pi.on("session_tree", async (_event, ctx) => rebuild(ctx));

	pi.registerCommand("note", {
		description: "Write this branch's note (/note <text>), or show it (/note)",
		handler: async (args, ctx) => {
			const text = args.trim();
			if (!text) {
				ctx.ui.notify(note ? `This branch's note: ${note}` : "This branch has no note yet.", "info");
				return;
			}
			pi.appendEntry<NoteData>(NOTE_ENTRY, { text });
			rebuild(ctx);
			ctx.ui.notify(`Noted on this branch: ${text}`, "info");
		},
	});

	pi.registerTool({
		name: "read_note",
		label: "Read note",
		description: "Read the note kept on the active branch of this session.",
		parameters: pi.zod.object({}),
		async execute(_toolCallId, _params, _signal, _onUpdate, ctx) {
			rebuild(ctx);
			return {
				content: [{ type: "text", text: note ? `The note on this branch: ${note}` : "There is no note on this branch." }],
				details: { note },
			};
		},
	});
}
