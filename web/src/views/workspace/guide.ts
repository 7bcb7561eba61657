/**
 * The lesson's pointers into the workspace, as one lazily loaded module: which tab a step opens,
 * what it outlines, and the "Where: …" line. What a step points at is in its own data (the step
 * file's `tab`, `outline` and `code`); this module knows how the page shows it. Loaded right after
 * the first paint; until then a step simply points at nothing.
 */
export { asksClosingQuestion, describeSpot, tabForSpot, type StepSpot } from './controls';
export { findSpot, trackHighlights } from './highlight';
