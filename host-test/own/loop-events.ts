/**
 * test:host's own extension for the agent loop's notifications (issue 37): it says each
 * `message_start`/`message_end`, `tool_execution_start`/`_update`/`_end` and
 * `session_shutdown` it hears, with the fields OMP sends, and `/facts` says what the reads answer
 * (`pi.getCommands`, `pi.getSessionName`, `ctx.isIdle`, `ctx.hasPendingMessages`, the logger's
 * `time`), so the page's host and the real OMP 18.2.3 are compared word for word
 * (host-test/ownScripts.ts). Ids and timestamps are left out: they differ by design.
 */
import type { ExtensionAPI } from "@oh-my-pi/pi-coding-agent";

interface Said {
	ui: { notify(text: string, level?: "info" | "warning" | "error"): void };
	isIdle(): boolean;
	hasPendingMessages(): boolean;
	sessionManager: { getSessionName(): string | undefined };
}
interface Message {
	role: string;
	content?: unknown;
	isError?: boolean;
}
type On = (event: string, handler: (event: Record<string, unknown>, ctx: Said) => void) => void;
interface Extra {
	getCommands(): { name: string; description?: string; source: string }[];
	getSessionName(): string | undefined;
	logger: { time<T>(op: string, fn: () => T): T };
}

/** A message's text parts, joined; a part of another kind by its type. */
function textOf(message: Message): string {
	if (typeof message.content === "string") return message.content;
	if (!Array.isArray(message.content)) return "";
	return message.content.map((part: { type?: string; text?: string; name?: string }) => (part.type === "text" ? part.text : `[${part.type}${part.name ? ` ${part.name}` : ""}]`)).join(" ");
}

export default function loopEvents(pi: ExtensionAPI) {
	const on = pi.on as unknown as On;
	const extra = pi as unknown as Extra;
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "Says a word loudly.",
		parameters: pi.typebox.Type.Unsafe({ type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false }),
		async execute(_id: string, params: unknown, _signal: unknown, onUpdate: ((partial: unknown) => void) | undefined) {
			const word = (params as { word: string }).word;
			onUpdate?.({ content: [{ type: "text", text: `${word}...` }], details: { loud: false } });
			return { content: [{ type: "text", text: word.toUpperCase() }], details: { word } };
		},
	} as never);
	for (const type of ["message_start", "message_end"]) {
		on(type, (event, ctx) => {
			const message = event.message as Message;
			ctx.ui.notify(`${type} ${message.role}: ${textOf(message)}${message.role === "toolResult" ? ` (isError ${message.isError})` : ""}`);
		});
	}
	// tool_call too: OMP prepares a reply's calls before it ends the message, so `tool_call` comes before the assistant's `message_end`.
	on("tool_call", (event, ctx) => ctx.ui.notify(`tool_call ${String(event.toolName)} ${JSON.stringify(event.input)}`));
	on("tool_execution_start", (event, ctx) => ctx.ui.notify(`tool_execution_start ${String(event.toolName)} ${JSON.stringify(event.args)} idle ${ctx.isIdle()}`));
	on("tool_execution_update", (event, ctx) => ctx.ui.notify(`tool_execution_update ${String(event.toolName)} ${JSON.stringify(event.args)} ${JSON.stringify(event.partialResult)}`));
	on("tool_execution_end", (event, ctx) => {
		const result = event.result as { content: unknown; details: unknown };
		ctx.ui.notify(`tool_execution_end ${String(event.toolName)} isError ${String(event.isError)} ${JSON.stringify(result.content)} ${JSON.stringify(result.details)}`);
	});
	on("session_shutdown", (_event, ctx) => ctx.ui.notify("session_shutdown"));
	pi.registerCommand("facts", {
		description: "Says what the host answers.",
		handler: async (_args: string, ctx: unknown) => {
			const said = ctx as Said;
			// OMP 18.2.3 also lists its own built-in extension's /autoresearch, which the page does not have (the API table says so).
			const commands = extra.getCommands().filter((command) => command.source === "extension" && command.name !== "autoresearch");
			said.ui.notify(`commands ${JSON.stringify(commands)}`);
			said.ui.notify(`name ${String(extra.getSessionName())} / ${String(said.sessionManager.getSessionName())}; idle ${said.isIdle()}; pending ${said.hasPendingMessages()}; timed ${extra.logger.time("facts", () => 42)}`);
		},
	} as never);
}
