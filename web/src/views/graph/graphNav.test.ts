import { describe, expect, it } from 'vitest';
import { moveFrom, nearestInNextLane } from './graphNav';

const lanes = (...values: number[]) => values.map((lane) => ({ lane }));

describe('graph keyboard moves', () => {
  // rows:   0  1  2  3  4  5  6
  // lanes:  0  0  1  0  2  1  0
  const rows = lanes(0, 0, 1, 0, 2, 1, 0);

  it('Right goes to the nearest row in the next lane, ties to the earlier row', () => {
    expect(nearestInNextLane(rows, 3, 1)).toBe(2);
    expect(nearestInNextLane(rows, 6, 1)).toBe(5);
    expect(nearestInNextLane(rows, 0, 1)).toBe(2);
  });

  it('Left from lane 2 lands in lane 1, not lane 0', () => {
    expect(nearestInNextLane(rows, 4, -1)).toBe(5);
  });

  it('skips an empty lane to the next one that holds rows, and stays put at the edge', () => {
    expect(nearestInNextLane(lanes(0, 3, 0), 0, 1)).toBe(1);
    expect(nearestInNextLane(rows, 0, -1)).toBe(0);
    expect(nearestInNextLane(rows, 4, 1)).toBe(4);
  });

  it('Up, Down, Home, End and pages stay inside the rows', () => {
    expect(moveFrom(rows, 0, 'up', 5)).toBe(0);
    expect(moveFrom(rows, 6, 'down', 5)).toBe(6);
    expect(moveFrom(rows, 3, 'home', 5)).toBe(0);
    expect(moveFrom(rows, 3, 'end', 5)).toBe(6);
    expect(moveFrom(rows, 3, 'page-down', 5)).toBe(6);
    expect(moveFrom(rows, 3, 'page-up', 2)).toBe(1);
    expect(moveFrom([], 0, 'end', 5)).toBe(0);
  });
});
