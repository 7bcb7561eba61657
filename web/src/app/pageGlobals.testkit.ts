/**
 * What the browser gives the page and Node does not: storage, the address, animation frames.
 * Each `stub…` installs its stand-in with `vi.stubGlobal`; tests undo them with `vi.unstubAllGlobals()`.
 */
import { vi } from 'vitest';

/** localStorage / sessionStorage, in memory. */
export class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
  get length(): number {
    return this.items.size;
  }
}

/** A storage the browser refuses (private mode, disabled storage): every read and write throws. */
export const refusingStorage = {
  getItem(): string | null {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
  setItem(): void {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
  removeItem(): void {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
};

export function stubStorage(name: 'localStorage' | 'sessionStorage', storage: MemoryStorage | typeof refusingStorage = new MemoryStorage()): MemoryStorage | typeof refusingStorage {
  vi.stubGlobal(name, storage);
  return storage;
}

/** `location.hash` and `history.replaceState`, which moves it (all the tutorial uses of the address). */
export function stubAddress(hash = ''): { readonly location: { hash: string }; readonly replaced: string[] } {
  const location = { hash };
  const replaced: string[] = [];
  vi.stubGlobal('location', location);
  vi.stubGlobal('history', {
    replaceState(_state: unknown, _unused: string, url: string) {
      replaced.push(url);
      location.hash = url.startsWith('#') ? url : '';
    },
  });
  return { location, replaced };
}

/** requestAnimationFrame: frames run when the test says a frame has come (`runFrames`). */
export function stubFrames(): { runFrames(): void; pending(): number; requested(): Promise<void> } {
  const frames = new Map<number, FrameRequestCallback>();
  let waiters: (() => void)[] = [];
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => {
    frames.set(next, run);
    const told = waiters;
    waiters = [];
    for (const tell of told) tell();
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle));
  return {
    runFrames() {
      const due = [...frames];
      frames.clear();
      for (const [, run] of due) run(performance.now());
    },
    pending: () => frames.size,
    /** Resolves when the page next asks for a frame. */
    requested: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
