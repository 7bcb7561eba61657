/** Small timing helpers: medians and percentiles of repeated samples, ratios against a baseline. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/**
 * Time `op` as the median of `samples` batches of `batch` calls each, in microseconds per call.
 * Batching lifts sub-microsecond operations above the timer's resolution.
 */
export function timeOp(op: () => unknown, { samples = 31, batch = 1 }: { samples?: number; batch?: number } = {}): number {
  const perCall: number[] = [];
  let sink: unknown;
  for (let warm = 0; warm < Math.min(batch, 1000); warm++) sink = op();
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) sink = op();
    perCall.push(((performance.now() - start) * 1000) / batch);
  }
  if (sink === Symbol.for('never')) console.log('');
  return median(perCall);
}

export function formatMicros(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  if (us >= 1) return `${us.toFixed(2)} µs`;
  return `${(us * 1000).toFixed(0)} ns`;
}

export function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}

export interface Figure {
  readonly issue: number;
  readonly measure: string;
  readonly value: string;
  readonly target: string;
  /** null when the figure has no target (a baseline, or a number reported for information). */
  readonly met: boolean | null;
}

/** Each benchmark part leaves its figures here; `npm run bench` prints them all in one table. */
export async function saveFigures(part: string, figures: readonly Figure[]): Promise<void> {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(`bench-results/${part}.json`, JSON.stringify(figures, null, 2));
}
