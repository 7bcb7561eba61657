/**
 * The host's vocabularies, declared once for the worker, the protocol, the lessons and the views:
 * approval tiers, modes and decisions (OMP `tools/approval.ts`), the storage faults the page can
 * inject, and the topics a panel can watch. Plain constants: importing them costs the page nothing.
 */

/** Tiers rank read < write < exec; a tool that declares none counts as exec. */
export const APPROVAL_TIERS = ['read', 'write', 'exec'] as const;
export type ApprovalTier = (typeof APPROVAL_TIERS)[number];

/** `tools.approvalMode`: the highest tier that runs without a prompt. */
export const APPROVAL_MODES = ['always-ask', 'write', 'yolo'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The host's default mode (`tools.approvalMode` schema default). */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'yolo';

/** A policy (the user's `tools.approval.<tool>`, or a tool's own) and the resolution's answer. */
export const APPROVAL_DECISIONS = ['allow', 'prompt', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Storage faults the Refusals and fault demos inject into the next write. */
export const STORE_FAULTS = ['abort', 'quota', 'close'] as const;
export type StoreFault = (typeof STORE_FAULTS)[number];

/** What a panel can watch (protocol `WatchSchema`). */
export const TOPICS = ['conversation', 'events', 'journal', 'graph', 'sessions', 'compare'] as const;
