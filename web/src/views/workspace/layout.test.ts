import { describe, expect, it } from 'vitest';
import { CENTRE_MIN, DEFAULT_SIZES, normalizeSizes, readSizes, SIZE_LIMITS, withSize, writeSizes } from './layout';
import { sizesAfterKey, sizesFromPointer } from './resize';

describe('workspace sizes', () => {
  it('starts from a layout that is already valid: the defaults come back unchanged', () => {
    expect(normalizeSizes(DEFAULT_SIZES)).toEqual(DEFAULT_SIZES);
    expect(DEFAULT_SIZES.lesson + DEFAULT_SIZES.desk).toBeLessThanOrEqual(100 - CENTRE_MIN);
  });

  it('keeps each size within its limits', () => {
    expect(withSize(DEFAULT_SIZES, 'tools', 5).tools).toBe(SIZE_LIMITS.tools.min);
    expect(withSize(DEFAULT_SIZES, 'tools', 99).tools).toBe(SIZE_LIMITS.tools.max);
  });

  it('never lets the side columns starve the centre: the column being resized gives way', () => {
    const wide = withSize({ lesson: 40, desk: 20, tools: 40 }, 'desk', 45);
    expect(wide.desk).toBe(100 - CENTRE_MIN - 40);
    expect(wide.lesson).toBe(40);
  });

  it('reads back what it wrote, and falls back to the defaults on anything else', () => {
    const sizes = { lesson: 30, desk: 25, tools: 50 };
    expect(readSizes(writeSizes(sizes))).toEqual(sizes);
    expect(readSizes(null)).toEqual(DEFAULT_SIZES);
    expect(readSizes('not json')).toEqual(DEFAULT_SIZES);
    expect(readSizes('{"version":2,"lesson":30,"desk":25,"tools":50}')).toEqual(DEFAULT_SIZES);
    expect(readSizes('{"version":1,"lesson":"30","desk":25,"tools":50}')).toEqual(DEFAULT_SIZES);
  });

  it('repairs stored sizes that no longer fit together', () => {
    const repaired = readSizes('{"version":1,"lesson":40,"desk":45,"tools":200}');
    expect(repaired.lesson + repaired.desk).toBeLessThanOrEqual(100 - CENTRE_MIN);
    expect(repaired.tools).toBe(SIZE_LIMITS.tools.max);
  });
});

describe('the separators', () => {
  it('move the border the way the arrow points', () => {
    expect(sizesAfterKey(DEFAULT_SIZES, 'lesson', 'ArrowRight')?.lesson).toBeGreaterThan(DEFAULT_SIZES.lesson);
    expect(sizesAfterKey(DEFAULT_SIZES, 'desk', 'ArrowLeft')?.desk).toBeGreaterThan(DEFAULT_SIZES.desk);
    expect(sizesAfterKey(DEFAULT_SIZES, 'tools', 'ArrowUp')?.tools).toBeGreaterThan(DEFAULT_SIZES.tools);
    expect(sizesAfterKey(DEFAULT_SIZES, 'tools', 'ArrowDown')?.tools).toBeLessThan(DEFAULT_SIZES.tools);
    expect(sizesAfterKey(DEFAULT_SIZES, 'lesson', 'Home')?.lesson).toBe(SIZE_LIMITS.lesson.min);
    expect(sizesAfterKey(DEFAULT_SIZES, 'lesson', 'ArrowUp')).toBeNull();
  });

  it('follow the pointer: the pane edge lands where the pointer is', () => {
    const box = { left: 0, top: 100, width: 1000, height: 800 };
    expect(sizesFromPointer(DEFAULT_SIZES, 'lesson', box, 300, 0).lesson).toBe(30);
    expect(sizesFromPointer(DEFAULT_SIZES, 'desk', box, 700, 0).desk).toBe(30);
    expect(sizesFromPointer(DEFAULT_SIZES, 'tools', box, 0, 500).tools).toBe(50);
  });
});
