/**
 * "Fail the next write" in the real host (Bun): the session file's path is made unwritable for
 * one write, from outside the process, as a full or broken disk would. The file is moved aside and
 * a directory takes its path: the host's append writer re-opens the path under its publish lock
 * (a replaced file is re-opened) and meets EISDIR. As soon as the session manager reports the
 * failure (`onPersistenceError`), the file goes back, so exactly one write fails (we run as root:
 * file modes would not stop a write).
 *
 * What the host does with it is recorded, not assumed (OMP 18.2.3, src/session/session-manager.ts):
 * `#appendToCurrentSessionFile` catches the writer's throw (appends never throw to the caller),
 * `#noteDiskFailure` latches the error, logs "Session persistence error." once and tells each
 * `onPersistenceError` observer once; the print and RPC modes turn that into the text of
 * `modes/persistence-failure.ts` `formatPersistenceFailure` (the interactive mode shows its own
 * warning). The log line and that text are captured here as the host produced them.
 */
import { existsSync, mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { OMP_DIR } from './ompLoad';
import type { HostSessionManager } from './ompTypes';

/** One store failure as the host reported it. */
export interface ReportedFailure {
  /** The error the manager gave its observers. */
  readonly error: string;
  /** What the host's print/RPC modes tell the user for it (`formatPersistenceFailure`). */
  readonly userNotice: string;
}

interface HostLogEvent {
  readonly level: string;
  readonly message: string;
  readonly context: Record<string, unknown> | undefined;
}

type FormatFailure = (message: string) => string;
type RegisterLogSink = (sink: (event: HostLogEvent) => void) => () => void;

let hostModules: Promise<{ format: FormatFailure; registerLogSink: RegisterLogSink }> | undefined;
/** The host's own notice text and its logger's sink registry (the modules the session manager uses). */
export function persistenceModules(): Promise<{ format: FormatFailure; registerLogSink: RegisterLogSink }> {
  hostModules ??= (async () => {
    const [failure, utils] = await Promise.all([
      import(Bun.resolveSync('@oh-my-pi/pi-coding-agent/modes/persistence-failure', OMP_DIR)) as Promise<{ formatPersistenceFailure: FormatFailure }>,
      import(Bun.resolveSync('@oh-my-pi/pi-utils', OMP_DIR)) as Promise<{ logger: { registerLogSink: RegisterLogSink } }>,
    ]);
    return { format: failure.formatPersistenceFailure, registerLogSink: utils.logger.registerLogSink };
  })();
  return hostModules;
}

export class WriteFault {
  private aside: string | null = null;
  private readonly failures: ReportedFailure[] = [];
  private readonly logged: string[] = [];
  private readonly stops: (() => void)[] = [];

  private constructor(
    private readonly sm: HostSessionManager,
    modules: { format: FormatFailure; registerLogSink: RegisterLogSink },
  ) {
    const file = sm.getSessionFile();
    this.stops.push(
      sm.onPersistenceError((error) => {
        this.failures.push({ error: error.message, userNotice: modules.format(error.message) });
        this.restore();
      }),
      // The host's log lines about this session's file (its logger is process-wide).
      modules.registerLogSink((event) => {
        if (event.context?.['sessionFile'] === file && /persistence/i.test(event.message)) this.logged.push(`${event.level}: ${event.message}`);
      }),
    );
  }

  static async watch(sm: HostSessionManager): Promise<WriteFault> {
    return new WriteFault(sm, await persistenceModules());
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

  /** The failures the host reported to its observers, in order. */
  reported(): readonly ReportedFailure[] {
    return this.failures;
  }

  /** The host's log lines about a persistence failure of this file, in order. */
  logLines(): readonly string[] {
    return this.logged;
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
    for (const stop of this.stops) stop();
  }
}

/** Whether the host holds a latched write failure: its flush() rejects with it until a write succeeds. */
export async function writeLatched(sm: HostSessionManager): Promise<boolean> {
  return sm.flush().then(
    () => false,
    () => true,
  );
}
