/**
 * Which members of `Bun` a strict module gets (spec §10, docs/modules.md "Strict policy"). An
 * allowlist, so a member a later Bun adds is absent until someone decides it belongs here:
 *
 * - in the VM context (CommonJS, TypeScript) `Bun` is a frozen object of the context holding
 *   exactly these members — `Bun.plugin`, `Bun.build`, `Bun.Transpiler` (which runs macros)
 *   are simply not there, so a module cannot rewrite another module's text at load;
 * - an in-process ES module has the real `Bun`, so the lint (lint-rules.ts) refuses every
 *   spelled `Bun.<member>` outside the list, and any use of `Bun` that is not `Bun.<member>`
 *   (computed or aliased access cannot be checked).
 *
 * Processes stay: `Bun.spawn`, `Bun.spawnSync` and `Bun.$` are handed over under every
 * policy. The spec locks that in (the seed's `Bun.spawnSync` module must pass and run) —
 * strict is a contract check, not isolation, and keeping the gap visible is the point.
 * Every member is the host's own function, so its `constructor.constructor` is the host's
 * `Function` (a pinned gap).
 */
import { visibleEnv, type ModulePolicy } from "./module-policy";

interface BunMemberGroup {
  members: readonly string[];
  /** Whether the policy hands the group over. */
  given: (policy: ModulePolicy) => boolean;
  /** When it is handed over, for the refusal's text. */
  condition: string;
}

export const BUN_MEMBER_GROUPS: readonly BunMemberGroup[] = [
  {
    // Pure computation: hashing, encoding, formatting, compression, parsing, timing.
    members: [
      "version", "revision", "version_with_sha", "hash", "sha", "MD4", "MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512",
      "SHA512_256", "CryptoHasher", "password", "CSRF", "deepEquals", "deepMatch", "escapeHTML", "inspect", "nanoseconds",
      "sleep", "sleepSync", "peek", "stringWidth", "stripANSI", "sliceAnsi", "wrapAnsi", "color", "semver",
      "gzipSync", "gunzipSync", "deflateSync", "inflateSync", "zstdCompressSync", "zstdDecompressSync", "zstdCompress",
      "zstdDecompress", "concatArrayBuffers", "ArrayBufferSink", "allocUnsafe", "indexOfLine", "randomUUIDv7", "randomUUIDv5",
      "readableStreamToArray", "readableStreamToArrayBuffer", "readableStreamToBytes", "readableStreamToBlob",
      "readableStreamToFormData", "readableStreamToJSON", "readableStreamToText", "JSONC", "JSON5", "JSONL", "TOML", "YAML",
      "markdown", "Cookie", "CookieMap", "fileURLToPath", "pathToFileURL", "isMainThread",
    ],
    given: () => true,
    condition: "always",
  },
  // The honest contract: strict never takes processes away (docs/modules.md "Known gaps").
  { members: ["spawn", "spawnSync", "$"], given: () => true, condition: "always" },
  { members: ["env"], given: (p) => p.allowEnv, condition: 'with "allow_env": true' },
  {
    members: ["fetch", "connect", "listen", "serve", "udpSocket", "dns", "sql", "SQL", "postgres", "redis", "RedisClient", "s3", "S3Client", "FetchSession"],
    given: (p) => p.allowNetwork,
    condition: 'with "allow_network": true',
  },
  {
    members: ["file", "write", "mmap", "Glob", "Archive", "stdin", "stdout", "stderr"],
    given: (p) => p.allowBuiltins.has("fs"),
    condition: 'with "fs" in "allow_builtins"',
  },
  { members: ["FFI"], given: (p) => p.allowBuiltins.has("bun:ffi"), condition: 'with "bun:ffi" in "allow_builtins"' },
];

/** Members strict withholds by name (the rest of Bun is absent without being named). */
const WITHHELD = ["plugin", "build", "Transpiler", "registerMacro", "ModuleGraph", "unsafe", "jest", "openInEditor", "cron", "Terminal", "WebView", "secrets", "which", "resolve", "resolveSync", "embeddedFiles", "main", "argv", "cwd", "gc", "generateHeapSnapshot", "FileSystemRouter", "Image", "isStandaloneExecutable", "origin", "shrink", "enableANSIColors"];

const groupOf = new Map(BUN_MEMBER_GROUPS.flatMap((group) => group.members.map((member) => [member, group] as const)));

/** Whether `name` is a member of Bun this table knows (given under some policy, or withheld by name). */
export const isBunMember = (name: string): boolean => groupOf.has(name) || WITHHELD.includes(name);

/** The members of `Bun` this policy hands a strict module. */
export const givenBunMembers = (policy: ModulePolicy): string[] =>
  BUN_MEMBER_GROUPS.filter((group) => group.given(policy)).flatMap((group) => group.members);

/** Why `Bun.<member>` is not there under this policy; undefined when it is. */
export function missingBunMember(policy: ModulePolicy, member: string): string | undefined {
  const group = groupOf.get(member);
  if (!group) return "strict modules do not get it";
  return group.given(policy) ? undefined : `strict modules only get it ${group.condition}`;
}

/**
 * The `Bun` of a strict VM context: an object of that context (`makeObject`), so its own
 * `constructor.constructor` is the context's Function, with a getter per given member.
 */
export function strictBun(policy: ModulePolicy, makeObject: () => object): object {
  const host = Bun as unknown as Record<string, unknown>;
  const facade = makeObject();
  for (const member of givenBunMembers(policy)) {
    if (member in host && member !== "env") Object.defineProperty(facade, member, { get: () => host[member], enumerable: true });
  }
  // Like `process.env` of the context's process facade: a copy, so a module cannot change
  // the environment Luma itself reads (LUMA_IDEMPOTENCY_KEY, credentials).
  if (policy.allowEnv) Object.defineProperty(facade, "env", { value: Object.freeze(visibleEnv(policy, process.env)), enumerable: true });
  return Object.freeze(facade);
}
