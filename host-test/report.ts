/** One line per check, shared by the Bun side and the Node side of `npm run test:host`. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly ms: number;
}

export class Checks {
  readonly results: CheckResult[] = [];

  /** Runs one check; a thrown error (an assertion) fails it with its message, and the run goes on. */
  async run(name: string, body: () => Promise<string | void>): Promise<void> {
    const start = performance.now();
    let result: CheckResult;
    try {
      const detail = (await body()) ?? '';
      result = { name, ok: true, detail, ms: performance.now() - start };
    } catch (error) {
      result = { name, ok: false, detail: error instanceof Error ? error.message : String(error), ms: performance.now() - start };
    }
    this.results.push(result);
    console.log(formatResult(result));
  }
}

export function formatResult(result: CheckResult): string {
  const head = `${result.ok ? 'PASS' : 'FAIL'}  ${result.name} (${(result.ms / 1000).toFixed(1)} s)`;
  return result.detail ? `${head}\n      ${result.detail.split('\n').join('\n      ')}` : head;
}
