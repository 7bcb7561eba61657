import { describe, expect, it } from 'vitest';
import { gutterPaths, laneX, ROW_HEIGHT, stripOf } from './graphGeometry';

const H = ROW_HEIGHT;
const base = { lane: 0, up: false, down: false, forks: [] as number[], through: [] as number[], edge: 'none' as const };
const node = { ...base, kind: 'user' as const, onActivePath: true, isLeaf: false, desk: null };

describe('gutter strips', () => {
  it('draws the active path in lane 0 strong, and a passing branch muted', () => {
    const strip = stripOf({ ...base, up: true, down: true, through: [1] }, true);
    expect(strip.strong).toBe(`M${laneX(0)} 0V${H / 2}M${laneX(0)} ${H / 2}V${H}`);
    expect(strip.muted).toBe(`M${laneX(1)} 0V${H}`);
  });

  it('without an active path, lane 0 is muted like any other', () => {
    const strip = stripOf({ ...base, up: true }, false);
    expect(strip.strong).toBe('');
    expect(strip.muted).toContain(`M${laneX(0)} 0`);
  });

  it('a fork bends from the node to the bottom of its lane', () => {
    const strip = stripOf({ ...base, forks: [2] }, true);
    expect(strip.muted).toBe(`M${laneX(0)} ${H / 2}C${laneX(0)} ${H} ${laneX(2)} ${H / 2} ${laneX(2)} ${H}`);
  });

  it('an elided edge gets a stub, a drawn one does not', () => {
    expect(stripOf({ ...base, lane: 3, edge: 'elided' }, true).elided).not.toBe('');
    expect(stripOf({ ...base, lane: 3, edge: 'drawn', up: true }, true).elided).toBe('');
  });
});

describe('gutter window', () => {
  it('offsets each row by its place in the window and groups nodes by style', () => {
    const rows = [node, { ...node, up: true }, { ...node, kind: 'assistant' as const, onActivePath: false, lane: 1 }];
    const gutter = gutterPaths(rows, 1, 3, true);
    expect(gutter.strong).toBe(`M${laneX(0)} 0V${H / 2}`);
    expect(gutter.nodes['solid-active']).toContain(`M${laneX(0) - 4.5} ${H / 2}`);
    expect(gutter.nodes['hollow-muted']).toContain(`M${laneX(1) - 4.5} ${H + H / 2}`);
    expect(gutter.nodes['solid-muted']).toBe('');
  });

  it('draws a corrupt snapshot with a cross, and rings the leaf', () => {
    const corrupt = { ...node, kind: 'seed-desk' as const, isLeaf: true, desk: { revisionEntryId: 'd', changes: [], corrupt: true, problem: 'x', corruptAbove: null } };
    const gutter = gutterPaths([corrupt], 0, 1, true);
    expect(gutter.nodes.corrupt).not.toBe('');
    expect(gutter.nodes['solid-active']).toBe('');
    expect(gutter.cross).not.toBe('');
    expect(gutter.leafRing).not.toBe('');
  });
});
