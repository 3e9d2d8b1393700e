/** `bun run bench`: every benchmark, in one run. Figures go to the issue notes. */
import { benchStartupAndParse } from "./startup-and-parse";

console.log(`luma benchmarks · Bun ${Bun.version} · ${navigator.hardwareConcurrency} cores\n`);
await benchStartupAndParse();
