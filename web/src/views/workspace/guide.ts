/**
 * The lesson's pointers into the workspace, as one lazily loaded module: which tab a step opens,
 * what it outlines, and the "Where: …" line. Loaded right after the first paint; until then a
 * step simply points at nothing.
 */
export { asksClosingQuestion, describeStep, spotFor, tabForSpot, type StepSpot } from './stepTargets';
export { findSpot, trackHighlights } from './highlight';
