import * as z from 'zod/mini';

/**
 * The workspace's regions and the sizes of the three that can be resized, as percentages of the
 * workspace (so a remembered layout still fits after the window changes size). Pure: the
 * components do the DOM, this module does the arithmetic and the stored format.
 */

import { REGION_IDS, type RegionId } from '../../../../lessons/format/workspaceNames';

export type { RegionId };

const REGION_SHORT: Readonly<Record<RegionId, string>> = { lesson: 'Lesson', desk: 'Desk', tree: 'Tree', tools: 'Tools' };

/** The four regions, in the order the narrow layout's switcher offers them. */
export const REGIONS = REGION_IDS.map((id) => ({ id, short: REGION_SHORT[id] }));

/**
 * The regions' accessible names (Workspace.svelte writes them; tests find regions by them). The
 * centre is not "Session tree": that is the tree's own name (and its panel's heading) inside it.
 */
export const REGION_NAMES: Readonly<Record<RegionId, string>> = { lesson: 'Lesson', desk: 'Desk', tree: 'Session graph', tools: 'Tools' };


export type Resizable = 'lesson' | 'desk' | 'tools';
export type WorkspaceSizes = Readonly<Record<Resizable, number>>;

export const SIZE_LIMITS: Readonly<Record<Resizable, { min: number; max: number }>> = {
  lesson: { min: 15, max: 40 },
  desk: { min: 20, max: 45 },
  tools: { min: 15, max: 75 },
};

/** The session graph keeps at least this share of the width, whatever the side columns ask for. */
export const CENTRE_MIN = 30;

/** The lesson, the wordiest column, gets 25%: at 1280 px its summary and step fit one screen (docs/decisions.md). */
export const DEFAULT_SIZES: WorkspaceSizes = { lesson: 25, desk: 30, tools: 40 };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const tenth = (value: number) => Math.round(value * 10) / 10;

/**
 * Sets one size and keeps the layout possible: each size within its limits, and the two side
 * columns leaving the centre its share (the column being resized gives way, not the other one).
 */
export function withSize(sizes: WorkspaceSizes, which: Resizable, value: number): WorkspaceSizes {
  const { min, max } = SIZE_LIMITS[which];
  let limit = max;
  if (which === 'lesson') limit = Math.min(max, 100 - CENTRE_MIN - sizes.desk);
  if (which === 'desk') limit = Math.min(max, 100 - CENTRE_MIN - sizes.lesson);
  return { ...sizes, [which]: tenth(clamp(value, min, Math.max(min, limit))) };
}

/** Any sizes (stored, dragged) made valid: each clamped, and the desk narrowed if the centre would starve. */
export function normalizeSizes(sizes: WorkspaceSizes): WorkspaceSizes {
  const lesson = withSize(DEFAULT_SIZES, 'lesson', sizes.lesson).lesson;
  const tools = withSize(DEFAULT_SIZES, 'tools', sizes.tools).tools;
  return withSize({ lesson, desk: SIZE_LIMITS.desk.min, tools }, 'desk', sizes.desk);
}

/** Persisted name and format (docs/persisted-format.md). CHANGING EITHER FORGETS EVERY LEARNER'S LAYOUT. */
export const SIZES_KEY = 'seed-desk:workspace-sizes';

const StoredSizesSchema = z.object({ version: z.literal(1), lesson: z.number(), desk: z.number(), tools: z.number() });

/** The stored sizes, or the defaults when there are none or they do not parse. */
export function readSizes(raw: string | null): WorkspaceSizes {
  if (raw === null) return DEFAULT_SIZES;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return DEFAULT_SIZES;
  }
  const parsed = StoredSizesSchema.safeParse(json);
  if (!parsed.success || ![parsed.data.lesson, parsed.data.desk, parsed.data.tools].every(Number.isFinite)) return DEFAULT_SIZES;
  return normalizeSizes(parsed.data);
}

export function writeSizes(sizes: WorkspaceSizes): string {
  return JSON.stringify({ version: 1, lesson: sizes.lesson, desk: sizes.desk, tools: sizes.tools });
}

export function loadSizes(): WorkspaceSizes {
  try {
    return readSizes(localStorage.getItem(SIZES_KEY));
  } catch {
    return DEFAULT_SIZES;
  }
}

export function saveSizes(sizes: WorkspaceSizes): void {
  try {
    localStorage.setItem(SIZES_KEY, writeSizes(sizes));
  } catch {
    // Storage may be full or disabled: the layout then lasts for this visit only.
  }
}
