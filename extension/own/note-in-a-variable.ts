/**
 * A note in a variable: where lesson 10 ("Your own branch-aware extension") begins.
 *
 * `/note <text>` writes the note into the session as a custom entry, so the journal keeps every
 * note on the branch it was written on. But the extension answers `/note` and fills the status
 * line from its own variable, which only ever holds the last note typed, on whichever branch.
 * Fork the conversation and ask `/note`: the variable does not know the branch moved.
 * (`ExtensionContext` is imported for the rebuild the lesson has you write.)
 */
import type { ExtensionAPI, ExtensionContext } from "@oh-my-pi/pi-coding-agent";

const NOTE_ENTRY = "my-note";

export default function myExtension(pi: ExtensionAPI) {
	let note = "";

	pi.registerCommand("note", {
		description: "Write this branch's note (/note <text>), or show it (/note)",
		handler: async (args, ctx) => {
			const text = args.trim();
			if (!text) {
				ctx.ui.notify(note ? `This branch's note: ${note}` : "This branch has no note yet.", "info");
				return;
			}
			pi.appendEntry(NOTE_ENTRY, { text });
			note = text;
			ctx.ui.setStatus("my-note", `Note: ${note}`);
			ctx.ui.notify(`Noted on this branch: ${text}`, "info");
		},
	});
}
