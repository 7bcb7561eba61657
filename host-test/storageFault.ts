/**
 * "Fail the next write" in the real host (Bun): the session file's path is made unwritable for
 * one write, from outside the process, as a full or broken disk would. The file is moved aside and
 * a directory takes its path: the host's append writer re-opens the path under its publish lock
 * (a replaced file is re-opened) and meets EISDIR. As soon as the session manager reports the
 * failure (`onPersistenceError`), the file goes back, so exactly one write fails (we run as root:
 * file modes would not stop a write).
 */
import { existsSync, mkdirSync, renameSync, rmdirSync } from 'node:fs';
import type { HostSessionManager } from './ompTypes';

export class WriteFault {
  private aside: string | null = null;
  private readonly failures: string[] = [];
  private readonly stopWatching: () => void;

  constructor(private readonly sm: HostSessionManager) {
    this.stopWatching = sm.onPersistenceError((error) => {
      this.failures.push(error.message);
      this.restore();
    });
  }

  /** False when the host has written no file yet: there is no write to fail. */
  arm(): boolean {
    const file = this.sm.getSessionFile();
    if (!file || !existsSync(file) || this.aside) return false;
    this.aside = `${file}.aside`;
    renameSync(file, this.aside);
    mkdirSync(file);
    return true;
  }

  /** The errors the host reported, in order. */
  reported(): readonly string[] {
    return this.failures;
  }

  /** The file back in its place (also when no write came before the session closed). */
  restore(): void {
    const file = this.sm.getSessionFile();
    if (!this.aside || !file) return;
    rmdirSync(file);
    renameSync(this.aside, file);
    this.aside = null;
  }

  dispose(): void {
    this.restore();
    this.stopWatching();
  }
}

/** Whether the host holds a latched write failure: its flush() rejects with it until a write succeeds. */
export async function writeLatched(sm: HostSessionManager): Promise<boolean> {
  return sm.flush().then(
    () => false,
    () => true,
  );
}
