/**
 * docs/extension-api.md against OMP 18.2.3's own declarations (fixtures/omp-api/) and the worker's
 * table (apiSupport.ts): a member of the declarations missing from the file, a stale file, a table
 * key that names no member, or a "works"/"refused" row without its sentence fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, listMembers, renderApiDoc } from '../../../../scripts/extension-api.mjs';
import { API_SUPPORT, refusalOf } from './apiSupport';

const members = listMembers();
const doc = readFileSync(DOC_PATH, 'utf8');

describe('the declarations', () => {
  it('list the members the examples use, from every part of the API', () => {
    const keys = members.map((member) => member.key);
    // One from each group the generator reads, so a parser that lost a group fails here.
    for (const key of ['pi.registerCommand()', 'pi.exec()', 'pi.logger.debug()', 'pi.events.emit()', 'pi.on("session_before_switch")', 'pi.on("tool_call")', 'ctx.ui.custom()', 'ctx.ui.setWidget()', 'ctx.sessionManager.getBranch()', 'ctx.sessionManager.getTree()', 'ctx.hasUI', 'ctx.model', 'commandCtx.newSession()', 'tool.renderResult()', 'command.handler']) {
      expect(keys).toContain(key);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('give each event its event object, as OMP declares it', () => {
    const switching = members.find((member) => member.key === 'pi.on("session_before_switch")');
    expect(switching?.fields).toEqual(['type', 'reason', 'targetSessionFile']);
    expect(switching?.result).toBe('SessionBeforeSwitchResult');
    // A union of tool-specific events: the fields of all of them.
    expect(members.find((member) => member.key === 'pi.on("tool_call")')?.fields).toEqual(['type', 'toolCallId', 'toolName', 'input']);
  });
});

describe('docs/extension-api.md', () => {
  it('is what the generator writes now (run `node scripts/extension-api.mjs` after changing the table or the declarations)', () => {
    expect(doc).toBe(renderApiDoc(API_SUPPORT, members));
  });

  it('has one row for every member of the declarations, with its status', () => {
    for (const member of members) {
      const status = API_SUPPORT[member.key]?.[0] ?? 'not yet';
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${member.key}\``));
      expect(row, member.key).toBeDefined();
      expect(row).toContain(`| ${status} |`);
    }
  });

  it('calls a member the table does not name "not yet"', () => {
    const added = { key: 'pi.somethingOmpAdds()', kind: 'method', summary: 'New in a later OMP.', group: 'pi' } as const;
    expect(renderApiDoc(API_SUPPORT, [...members, added])).toContain('| `pi.somethingOmpAdds()` | not yet |  | New in a later OMP. |');
  });
});

describe('the table', () => {
  it('names only members of the declarations', () => {
    const keys = new Set(members.map((member) => member.key));
    expect(Object.keys(API_SUPPORT).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('gives every member that works or is refused one sentence', () => {
    const bare = Object.entries(API_SUPPORT).filter(([, [status, sentence]]) => status !== 'not yet' && (sentence === undefined || sentence.trim().length === 0));
    expect(bare.map(([key]) => key)).toEqual([]);
  });

  it('writes a refusal as the member, then why', () => {
    expect(refusalOf('pi.exec()')).toBe("pi.exec() is refused by the page's host: a browser tab has no shell to run a process in.");
    expect(refusalOf('pi.setModel()')).toBe("pi.setModel() is not in the page's host yet.");
    expect(refusalOf('pi.arktype')).toBe("pi.arktype is not in the page's host yet: write the parameters as JSON Schema with `pi.typebox.Type.Unsafe`.");
    expect(refusalOf('pi.registerCommand()')).toBeNull();
  });
});
