import { TIMINGS_OFF } from './loggerTimings';

/**
 * `pi.logger` for one loaded extension, as OMP 18.2.3's (pi-utils src/logger.ts) behaves for what
 * the extension logs: each message goes to the local transport, then to every registered sink.
 * OMP's local transport is its log file (or stdout); the page's is the worker's console, and
 * `setTransports` with neither turns it off. The sinks are the extension's own (OMP's are
 * process-wide and also hear OMP's own logs; the page's host logs nothing there), and end with it.
 */
type LogLevel = 'error' | 'warn' | 'info' | 'debug';

interface LogEvent {
  readonly level: LogLevel;
  readonly message: string;
  readonly context: Record<string, unknown> | undefined;
  readonly timestamp: Date;
}

export function pageLogger() {
  const sinks = new Set<(event: LogEvent) => void>();
  let local = true;
  const log = (level: LogLevel) => (message: string, context?: Record<string, unknown>) => {
    if (local) console[level](message, context ?? '');
    const event: LogEvent = { level, message, context, timestamp: new Date() };
    for (const sink of sinks) {
      try {
        sink(event);
      } catch {
        // logger.ts `emitToSinks`: a sink is a side channel and never breaks logging.
      }
    }
  };
  return {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    /** logger.ts `registerLogSink`: returns the disposer. */
    registerLogSink: (sink: (event: LogEvent) => void) => {
      sinks.add(sink);
      return () => void sinks.delete(sink);
    },
    /** logger.ts `setTransports`: a file (true or a path) or the console keeps the worker's console on; neither turns it off. */
    setTransports: (options: { console?: boolean; file?: boolean | string }) => {
      local = options.console === true || Boolean(options.file);
    },
    ...TIMINGS_OFF,
  };
}
