import { describe, expect, it } from 'vitest';
// @ts-ignore -- plain .mjs script without type declarations
import { ensureChromium, findChromium, NO_CHROMIUM_MESSAGE } from './find-chromium.mjs';

const downloaded = '/home/u/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

/** A fake machine: `files` are the executables that exist; Playwright names `downloaded` as its browser. */
function fakeMachine(files: string[], playwrightPath: () => string | null = () => downloaded) {
  return { exists: (path: string) => files.includes(path), playwrightPath };
}

describe('findChromium', () => {
  it('prefers CHROMIUM_PATH when that file exists', () => {
    const machine = fakeMachine(['/opt/chrome/chrome', '/usr/bin/chromium']);
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, ...machine })).toEqual({
      path: '/opt/chrome/chrome',
      source: 'CHROMIUM_PATH',
    });
  });

  it('reports a CHROMIUM_PATH that names no file as an error, naming the path', () => {
    const machine = fakeMachine(['/usr/bin/chromium']);
    expect(() => findChromium({ env: { CHROMIUM_PATH: '/nonexistent' }, ...machine })).toThrow(
      /CHROMIUM_PATH is set to "\/nonexistent", but no executable file is there/,
    );
  });

  it('checks /usr/bin/chromium before /usr/bin/chromium-browser, and both before Playwright', () => {
    expect(findChromium({ env: {}, ...fakeMachine(['/usr/bin/chromium-browser', '/usr/bin/chromium', downloaded]) })?.path).toBe(
      '/usr/bin/chromium',
    );
    expect(findChromium({ env: {}, ...fakeMachine(['/usr/bin/chromium-browser', downloaded]) })?.path).toBe('/usr/bin/chromium-browser');
  });

  it("falls back to the browser Playwright names, when that file exists", () => {
    expect(findChromium({ env: {}, ...fakeMachine([downloaded]) })).toEqual({ path: downloaded, source: 'playwright' });
    expect(findChromium({ env: {}, ...fakeMachine([]) })).toBeNull();
  });

  it('asks the real Playwright, which names a Chromium path of its own', () => {
    let asked: string | null = null;
    findChromium({ env: {}, exists: (path: string) => ((asked = path), false) });
    expect(asked).toMatch(/chrom/);
  });

  it('returns null when Playwright is not installed and there is no system Chromium', () => {
    expect(findChromium({ env: {}, ...fakeMachine([], () => null) })).toBeNull();
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
      find: (env: Record<string, string>) => findChromium({ env, ...fakeMachine([]) }),
      isDebianRoot: () => true,
      run: (command: string) => (calls.push(command), true),
      log: () => {},
      fail: (line: string) => ({ failed: line }),
    });
    expect(outcome).toEqual({ failed: expect.stringContaining('CHROMIUM_PATH is set to "/nonexistent"') });
    expect(calls).toEqual([]);
  });
});
