/**
 * The persisted name of seed desk entries. CHANGING THIS LOSES DATA: every journal already
 * written (and every real host file) finds its state by this exact string. Kept apart from
 * snapshot.ts so the page can name it without loading the snapshot schema.
 */
export const SEED_DESK_CUSTOM_TYPE = 'seed-desk-state-v1';

/** How that type reads inside a JSONL line: as a filter, it keeps only the seed desk lines. */
export const SEED_DESK_LINE_MARK = `"customType":"${SEED_DESK_CUSTOM_TYPE}"`;

/** The event the host emits on its event bus after every seed desk change (the lesson's name for it). */
export const SEED_DESK_CHANGED_EVENT = 'workbook:seed-desk:changed';
