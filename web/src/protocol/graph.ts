import '$domain/zodSetup';
import * as z from 'zod/mini';
import { GRAPH_KINDS } from '$domain/journal/graphRow';

/**
 * One row of the session graph as the view draws it (`graphLayout` in domain/journal/graphLayout.ts
 * builds it; see the field comments there). Rows travel as columns (`graphColumns.ts`), which
 * reuse the kind and desk schemas below; `GraphRowSchema` checks a row that travels alone (the
 * graph demo bench) and gives the view its row type.
 */
export const GraphKindSchema = z.enum(GRAPH_KINDS);
export type GraphKind = z.infer<typeof GraphKindSchema>;

// Plain numbers: 10k rows are parsed on the main thread, and every check costs there.
const laneSchema = z.number();

export const GraphDeskSchema = z.object({
  revisionEntryId: z.string(),
  changes: z.array(z.object({ text: z.string(), tone: z.enum(['added', 'removed', 'agent', 'none']) })),
  corrupt: z.boolean(),
  problem: z.nullable(z.string()),
  corruptAbove: z.nullable(z.string()),
});
export type GraphDeskView = z.infer<typeof GraphDeskSchema>;

export const GraphRowSchema = z.object({
  id: z.string(),
  parentId: z.nullable(z.string()),
  lane: laneSchema,
  parentLane: z.nullable(laneSchema),
  parentRow: z.nullable(laneSchema),
  edge: z.enum(['none', 'drawn', 'elided']),
  up: z.boolean(),
  down: z.boolean(),
  forks: z.array(laneSchema),
  through: z.array(laneSchema),
  kind: GraphKindSchema,
  text: z.string(),
  onActivePath: z.boolean(),
  isLeaf: z.boolean(),
  label: z.nullable(z.string()),
  desk: z.nullable(GraphDeskSchema),
});
export type GraphRowView = z.infer<typeof GraphRowSchema>;
