import { describe, expect, it } from 'vitest';
// @ts-ignore -- plain .mjs script without type declarations
import { ensureChromium, findChromium, NO_CHROMIUM_MESSAGE } from './find-chromium.mjs';

const home = '/home/u';
const cache = '/home/u/.cache/ms-playwright';

/** A fake filesystem: `files` are the executables that exist; folders are derived from them. */
function fakeFs(files: string[]) {
  return {
    exists: (path: string) => files.includes(path),
    readdir: (dir: string) => [
      ...new Set(files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0])),
    ],
    home,
  };
}

describe('findChromium', () => {
  it('prefers CHROMIUM_PATH when that file exists', () => {
    const fs = fakeFs(['/opt/chrome/chrome', '/usr/bin/chromium']);
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, ...fs })).toEqual({
      path: '/opt/chrome/chrome',
      source: 'CHROMIUM_PATH',
    });
  });

  it('reports a CHROMIUM_PATH that names no file as an error, naming the path', () => {
    const fs = fakeFs(['/usr/bin/chromium']);
    expect(() => findChromium({ env: { CHROMIUM_PATH: '/nonexistent' }, ...fs })).toThrow(
      /CHROMIUM_PATH is set to "\/nonexistent", but no executable file is there/,
    );
  });

  it('checks /usr/bin/chromium before /usr/bin/chromium-browser', () => {
    expect(findChromium({ env: {}, ...fakeFs(['/usr/bin/chromium-browser', '/usr/bin/chromium']) })?.path).toBe(
      '/usr/bin/chromium',
    );
    expect(findChromium({ env: {}, ...fakeFs(['/usr/bin/chromium-browser']) })?.path).toBe('/usr/bin/chromium-browser');
  });

  it("falls back to Playwright's cache: full Chromium first, newest revision first", () => {
    const fs = fakeFs([
      `${cache}/chromium_headless_shell-1300/chrome-headless-shell-linux64/chrome-headless-shell`,
      `${cache}/chromium-1200/chrome-linux64/chrome`,
      `${cache}/chromium-1255/chrome-linux64/chrome`,
    ]);
    expect(findChromium({ env: {}, ...fs })).toEqual({
      path: `${cache}/chromium-1255/chrome-linux64/chrome`,
      source: 'playwright-cache',
    });
  });

  it('finds the headless shell in both the old and the new layout', () => {
    const old = `${cache}/chromium_headless_shell-1100/chrome-linux/headless_shell`;
    expect(findChromium({ env: {}, ...fakeFs([old]) })?.path).toBe(old);
    const now = `${cache}/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell`;
    expect(findChromium({ env: {}, ...fakeFs([now]) })?.path).toBe(now);
  });

  it('looks in PLAYWRIGHT_BROWSERS_PATH when it is set', () => {
    const chrome = '/srv/browsers/chromium-1255/chrome-linux64/chrome';
    const fs = fakeFs([chrome, `${cache}/chromium-1255/chrome-linux64/chrome`]);
    expect(findChromium({ env: { PLAYWRIGHT_BROWSERS_PATH: '/srv/browsers' }, ...fs })?.path).toBe(chrome);
  });

  it('returns null when there is no Chromium anywhere', () => {
    expect(findChromium({ env: {}, ...fakeFs([]) })).toBeNull();
  });
});

describe('ensureChromium', () => {
  function harness({ debianRoot, afterInstall }: { debianRoot: boolean; afterInstall: string | null }) {
    const calls: string[] = [];
    let installed = false;
    const env: Record<string, string> = {};
    const outcome = ensureChromium({
      env,
      find: () => (installed && afterInstall ? { path: afterInstall, source: 'system' } : null),
      isDebianRoot: () => debianRoot,
      run: (command: string, args: string[]) => {
        calls.push([command, ...args].join(' '));
        installed = true;
        return true;
      },
      log: () => {},
      fail: (line: string) => ({ failed: line }),
    });
    return { calls, env, outcome };
  }

  it('installs the Debian package when root on Debian, then exports CHROMIUM_PATH', () => {
    const { calls, env, outcome } = harness({ debianRoot: true, afterInstall: '/usr/bin/chromium' });
    expect(calls).toEqual(['apt-get update', 'apt-get install -y chromium']);
    expect(outcome).toEqual({ path: '/usr/bin/chromium', source: 'system' });
    expect(env.CHROMIUM_PATH).toBe('/usr/bin/chromium');
  });

  it('tries `npx playwright install chromium` elsewhere', () => {
    const { calls } = harness({ debianRoot: false, afterInstall: '/x/chrome' });
    expect(calls).toEqual(['npx playwright install chromium']);
  });

  it('says in one sentence what to run when nothing could be installed', () => {
    const { outcome, env } = harness({ debianRoot: false, afterInstall: null });
    expect(outcome).toEqual({ failed: NO_CHROMIUM_MESSAGE });
    expect(NO_CHROMIUM_MESSAGE).toMatch(/sudo apt-get install -y chromium.*npx playwright install chromium.*CHROMIUM_PATH/);
    expect(env.CHROMIUM_PATH).toBeUndefined();
  });

  it('reports a wrong CHROMIUM_PATH without trying to install anything', () => {
    const calls: string[] = [];
    const outcome = ensureChromium({
      env: { CHROMIUM_PATH: '/nonexistent' },
      find: (env: Record<string, string>) => findChromium({ env, ...fakeFs([]) }),
      isDebianRoot: () => true,
      run: (command: string) => (calls.push(command), true),
      log: () => {},
      fail: (line: string) => ({ failed: line }),
    });
    expect(outcome).toEqual({ failed: expect.stringContaining('CHROMIUM_PATH is set to "/nonexistent"') });
    expect(calls).toEqual([]);
  });
});
