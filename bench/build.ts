/** `npm run bench` builds the app and the storage bench page once, before its parts run (BENCH_BUILT=1). */
import { buildAll } from './browserKit';

await buildAll();
