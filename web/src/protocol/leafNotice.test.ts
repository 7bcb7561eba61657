import { describe, expect, it } from 'vitest';
import { leafReturnNotice } from './leafNotice';

describe('leafReturnNotice', () => {
  it('names a plain move that appended nothing', () => {
    const text = leafReturnNotice('reopen', { navigated: true, foreignEntryId: null }, 'aaaa0001', 'bbbb0002');
    expect(text).toContain('Your move to aaaa0001 appended nothing');
    expect(text).not.toMatch(/another tab/i);
  });

  it('names another tab when its append moved the last entry, and does not blame a move', () => {
    const text = leafReturnNotice('reopen', { navigated: false, foreignEntryId: 'cccc0003' }, 'bbbb0002', 'cccc0003');
    expect(text).toContain('Another tab appended cccc0003');
    expect(text).not.toContain('appended nothing');
  });

  it('names both when both happened, and says reload after a reload', () => {
    const text = leafReturnNotice('reload', { navigated: true, foreignEntryId: 'cccc0003' }, null, 'cccc0003');
    expect(text.startsWith('After the reload')).toBe(true);
    expect(text).toContain('Another tab appended cccc0003');
    expect(text).toContain('Your move to the start of the session appended nothing');
  });
});
