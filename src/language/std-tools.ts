/**
 * `luma:std`, the standard tool set (docs/language/std-tools.md): its contracts as Luma
 * source, embedded in the binary and parsed like any imported file, so the checker, the
 * language server, type generation and `luma explain std` read real declarations. The
 * handlers are the runtime's (`runtime/tools/std/`), found by the file a tool is declared
 * in: a tool whose span names `luma:std` is served by them, whatever the user's modules say.
 *
 * Schema names start with `Std` so that they rarely meet a program's own: the files of a
 * program share one set of declaration names (E1006).
 */

/** The import path of the standard tool set, and the file name its declarations' spans carry. */
export const STD_MODULE = "luma:std";

/** Whether an import path names a built-in module (`luma:…`) rather than a file. */
export const isBuiltinModulePath = (path: string): boolean => path.startsWith("luma:");

/** The tools `luma:std` declares, in the order the docs list them. */
export const STD_TOOL_NAMES = ["read_file", "list_dir", "write_file", "http_get", "http_send"] as const;
export type StdToolName = (typeof STD_TOOL_NAMES)[number];

export const isStdToolName = (name: string): name is StdToolName => (STD_TOOL_NAMES as readonly string[]).includes(name);

/** The contracts. Bounds and confinement are described here once, for models and for `luma explain std`. */
export const STD_SOURCE = `// luma:std — the standard tool set. Import what you use:
//   import { read_file, write_file } from "luma:std"
// Files are confined to luma.config.json "std.files_root" (default: the program's
// directory); HTTP goes only to the hosts of "std.http_hosts" (none by default).
// Bodies and files are bounded to 1 MiB (1048576 bytes); redirects are not followed.

schema StdFile {
  path: string
  text: string
  bytes: int
}

schema StdDirEntry {
  name: string
  kind: enum["file", "dir", "other"]
  bytes: int
}

schema StdDirListing {
  entries: StdDirEntry[]
}

schema StdWritten {
  path: string
  bytes: int
}

schema StdHttpResponse {
  status: int
  headers: any
  text: string
}

tool read_file(path: string @desc("A path relative to files_root")) -> StdFile {
  side_effects: "read"
  description: "Read a UTF-8 text file under the configured files root."
}

tool list_dir(path: string @desc("A directory relative to files_root; \\".\\" is the root")) -> StdDirListing {
  side_effects: "read"
  description: "List a directory under the configured files root: each entry's name, kind and size."
}

tool write_file(
  path: string @desc("A path relative to files_root; its directory must exist"),
  text: string,
  request_id: string @desc("Identifies this write: a second call with the same id does not write again")
) -> StdWritten {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  description: "Write a UTF-8 text file under the configured files root (replacing it), once per request_id."
}

tool http_get(
  url: string @desc("An http:// or https:// URL on a host listed in std.http_hosts"),
  headers?: any @desc("Request headers, name to value; secrets come from std.http_headers_env")
) -> StdHttpResponse {
  side_effects: "read"
  description: "GET a URL on an allowed host; returns the status, the response headers and the body as text."
}

tool http_send(
  method: enum["POST", "PUT", "PATCH", "DELETE"],
  url: string @desc("An http:// or https:// URL on a host listed in std.http_hosts"),
  headers?: any @desc("Request headers, name to value; secrets come from std.http_headers_env"),
  body?: string,
  request_id?: string @desc("Sent as the Idempotency-Key header")
) -> StdHttpResponse {
  side_effects: "write"
  description: "Send a request with a body to a URL on an allowed host; returns the status, headers and body text."
}
`;

/** Every name `luma:std` declares (its tools, then its schemas): what an import from it may name. */
export const STD_SOURCE_NAMES: readonly string[] = [
  ...STD_TOOL_NAMES,
  ...[...STD_SOURCE.matchAll(/^schema (\w+)/gm)].map((m) => m[1]!),
];
