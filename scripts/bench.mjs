#!/usr/bin/env node
// `npm run bench`: every benchmark part in turn. Each part prints its own table with medians
// and ratios against a baseline measured in the same run (timings on these machines are noisy).
import { spawnSync } from 'node:child_process';

const parts = [
  { name: 'domain (Node)', args: ['tsx', 'bench/domain.bench.ts'] },
  { name: 'storage and page (Chromium)', args: ['tsx', 'bench/browser.bench.ts'] },
  { name: 'session tree, import, reopen (Chromium)', args: ['tsx', 'bench/tree.bench.ts'] },
];

let failed = false;
for (const part of parts) {
  console.log(`\n=== Benchmark: ${part.name} ===`);
  const run = spawnSync('npx', part.args, { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed = true;
    console.error(`Benchmark part "${part.name}" failed with exit code ${run.status}.`);
  }
}
process.exit(failed ? 1 : 0);
