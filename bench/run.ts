/** `bun run bench`: every benchmark, in one run. Figures go to the issue notes. */
import { benchStartupAndParse } from "./startup-and-parse";
import { benchPipelineOverhead } from "./pipeline-overhead";
import { benchPipelineFileStore } from "./pipeline-file-store";
import { benchAskRoundtrip } from "./ask-roundtrip";
import { benchDatasources } from "./datasources";
import { benchIdempotencyBackends } from "./idempotency-backends";
import { benchBuiltAgent } from "./built-agent";
import { benchMcpOverhead } from "./mcp-overhead";
import { benchJournalOverhead } from "./journal-overhead";
import { benchWhileLoop } from "./while-loop";
import { benchLspRecheck } from "./lsp-recheck";
import { benchLargeSources } from "./large-sources";
import { benchParserMemory } from "./parser-memory";

console.log(`luma benchmarks · Bun ${Bun.version} · ${navigator.hardwareConcurrency} cores\n`);
await benchStartupAndParse();
await benchLargeSources();
await benchParserMemory();
await benchBuiltAgent();
await benchPipelineOverhead();
await benchPipelineFileStore();
await benchAskRoundtrip();
await benchDatasources();
await benchIdempotencyBackends();
await benchMcpOverhead();
await benchJournalOverhead();
await benchWhileLoop();
await benchLspRecheck();
