/**
 * test:host's own extension for a command's session controls (issue 37): `/rebranch` calls
 * `ctx.branch` on the branch's first user message and `/renew` calls `ctx.newSession`, each saying
 * what it answered and how many user messages the session manager then reads (entries of other
 * kinds differ by design: OMP records its model and thinking level); the before-events ask first,
 * so their dialogs are the command's. Compared word for word with the real OMP 18.2.3 (ownScripts.ts).
 */
import type { ExtensionAPI } from "@oh-my-pi/pi-coding-agent";

interface Entry {
	id: string;
	type: string;
	message?: { role?: string };
}
interface Ctx {
	ui: { confirm(title: string, message: string): Promise<boolean>; notify(text: string): void };
	sessionManager: { getBranch(): Entry[]; getEntries(): Entry[] };
	newSession(): Promise<{ cancelled: boolean }>;
	branch(entryId: string): Promise<{ cancelled: boolean }>;
}
type On = (event: string, handler: (event: Record<string, unknown>, ctx: Ctx) => unknown) => void;
type Register = (name: string, command: { description?: string; handler: (args: string, ctx: Ctx) => Promise<void> }) => void;

const userMessages = (entries: Entry[]) => entries.filter((entry) => entry.type === "message" && entry.message?.role === "user").length;

export default function (pi: ExtensionAPI) {
	const on = pi.on as unknown as On;
	const register = pi.registerCommand as unknown as Register;
	on("session_before_switch", async (event, ctx) => ((await ctx.ui.confirm("Leave this session?", `reason: ${String(event.reason)}`)) ? undefined : { cancel: true }));
	on("session_before_branch", async (_event, ctx) => ((await ctx.ui.confirm("Branch here?", "a new session from the first message")) ? undefined : { cancel: true }));
	register("rebranch", {
		description: "ctx.branch on the branch's first user message",
		handler: async (_args, ctx) => {
			const first = ctx.sessionManager.getBranch().find((entry) => entry.type === "message" && entry.message?.role === "user");
			if (!first) return ctx.ui.notify("No user message on this branch.");
			const answer = await ctx.branch(first.id);
			ctx.ui.notify(`branch: cancelled=${answer.cancelled}; user messages on the branch now: ${userMessages(ctx.sessionManager.getBranch())}`);
		},
	});
	register("renew", {
		description: "ctx.newSession",
		handler: async (_args, ctx) => {
			const answer = await ctx.newSession();
			ctx.ui.notify(`newSession: cancelled=${answer.cancelled}; user messages in the session now: ${userMessages(ctx.sessionManager.getEntries())}`);
		},
	});
}
