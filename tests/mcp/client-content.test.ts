/**
 * Every content type of an MCP result reaches the program (docs/mcp.md, "What a call
 * returns"): through `dist/luma`, `luma mcp import everything` writes contracts, and a
 * program made of exactly that output calls every tool the official server-everything lists
 * to a client without sampling, elicitation or roots — text, JSON text, structured content,
 * images, audio-free mixed content, embedded resources, resource links and a task-based tool.
 * A contract that cannot take what came back fails the call naming server and tool.
 */
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { join } from "node:path";
import { FIXTURES, project, runLumaAsync, stdioServers } from "./mcp-harness";

setDefaultTimeout(60_000);

/** Every tool server-everything lists to Luma's client, and what the program prints for it. */
const EVERY_TOOL: { tool: string; call: string; prints: string }[] = [
  { tool: "echo", call: `tool echo({ message: "hi" }).text`, prints: "Echo: hi" },
  { tool: "get-annotated-message", call: `kinds(tool get_annotated_message({ messageType: "success", includeImage: true }))`, prints: "McpText McpImage" },
  { tool: "get-env", call: `kinds(tool get_env({}))`, prints: "McpText" },
  { tool: "get-resource-links", call: `kinds(tool get_resource_links({ count: 2 }))`, prints: "McpText McpResourceLink McpResourceLink" },
  { tool: "get-resource-reference", call: `kinds(tool get_resource_reference({ resourceType: "Blob", resourceId: 2 }))`, prints: "McpText McpResource McpText" },
  { tool: "get-structured-content", call: `tool get_structured_content({ location: "Chicago" }).conditions`, prints: "Light rain / drizzle" },
  { tool: "get-sum", call: `tool get_sum({ a: 2, b: 3 }).text`, prints: "The sum of 2 and 3 is 5." },
  { tool: "get-tiny-image", call: `first(tool get_tiny_image({}), "McpImage")`, prints: "image/png" },
  {
    tool: "gzip-file-as-resource",
    call: `first(tool gzip_file_as_resource({ name: "x.gz", data: "data:text/plain;base64,aGVsbG8=", outputType: "resource" }), "McpResource")`,
    prints: "application/gzip",
  },
  { tool: "toggle-simulated-logging", call: `kinds(tool toggle_simulated_logging({}))`, prints: "McpText" },
  { tool: "toggle-subscriber-updates", call: `kinds(tool toggle_subscriber_updates({}))`, prints: "McpText" },
  { tool: "trigger-long-running-operation", call: `tool trigger_long_running_operation({ duration: 0.2, steps: 2 }).text`, prints: "Long running operation completed. Duration: 0.2 seconds, Steps: 2." },
  { tool: "simulate-research-query", call: `kinds(tool simulate_research_query({ topic: "tasks" }))`, prints: "McpText" },
];

const HELPERS = `
fn kinds(r: McpResult) -> string {
  out = ""
  for c in r.content {
    if out != "" {
      out = out + " "
    }
    out = out + c.kind
  }
  return out
}

fn first(r: McpResult, kind: string) -> string {
  for c in r.content {
    if c.kind == kind {
      return c.mimeType
    }
  }
  return "none"
}
`;

describe("luma mcp import: the contracts it writes take everything server-everything returns", () => {
  let imported = "";
  beforeAll(async () => {
    const p = project({ mcp_servers: stdioServers() }, "");
    const r = await runLumaAsync(["mcp", "import", "everything"], { cwd: p.dir });
    expect(r.stderr).toBe("");
    imported = r.stdout;
  });

  test("it lists every tool, with McpResult for those without an outputSchema and the built-in content schema once", () => {
    for (const { tool } of EVERY_TOOL) expect(imported).toMatch(new RegExp(`(mcp_tool: "${tool}"|tool ${tool}\\()`));
    expect(imported.match(/^tool /gm)?.length).toBe(EVERY_TOOL.length);
    expect(imported.match(/^schema McpContent = McpText \| McpImage \| McpAudio \| McpResource \| McpResourceLink tagged by kind$/gm)?.length).toBe(1);
    expect(imported).toContain(") -> GetStructuredContentResult {");
    expect(imported).toContain("// a task-based tool: called as a task (call now, fetch later)\ntool simulate_research_query(");
  });

  test("a program of the imported contracts calls every tool: text, JSON, images, resources, links and a task", async () => {
    const body = EVERY_TOOL.map((t) => `print(${t.call})`).join("\n");
    const p = project({ mcp_servers: stdioServers() }, `${imported}\n${HELPERS}\n${body}\n`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    // server-everything logs at random levels once its simulated logging is on: its lines from
    // `warning` up are shown (docs/mcp.md "Log lines and progress"); nothing else is.
    expect(r.stderr.split("\n").filter((l) => l !== "" && !/^(warning|error): MCP server 'everything' logged \w+: /.test(l))).toEqual([]);
    expect(r.stdout).toBe(EVERY_TOOL.map((t) => `${t.prints}\n`).join(""));
    expect(r.exitCode).toBe(0);
  });
});

describe("content a contract cannot take fails the call, naming server and tool", () => {
  test("an image for a `{ text: string }` contract is MCP_RESULT_UNFIT, not a silently dropped image", async () => {
    const p = project(
      { mcp_servers: stdioServers() },
      `schema Said { text: string }
tool tiny() -> Said { mcp: "everything"  mcp_tool: "get-tiny-image"  side_effects: "read" }
try {
  tool tiny({})
} catch e {
  print("{e.code}: {e.message}")
}
`,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "MCP_RESULT_UNFIT: MCP server 'everything' answered tool 'tiny' ('get-tiny-image') with image content, which its return schema cannot take: give the schema a field `content: McpContent[]` (as `luma mcp import` writes it).\n",
    );
  });

  test("a contract of its own with a content field gets the typed blocks, without text when it declares none", async () => {
    const p = project(
      { mcp_servers: stdioServers() },
      `schema McpImage { data: string  mimeType: string  annotations?: any }
schema McpText { text: string  annotations?: any }
schema Part = McpText | McpImage tagged by kind
schema Picture { content: Part[] }
tool tiny() -> Picture { mcp: "everything"  mcp_tool: "get-tiny-image"  side_effects: "read" }
for part in tool tiny({}).content {
  if part.kind == "McpImage" {
    print("{part.mimeType} {len(part.data) > 100}")
  }
}
`,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("image/png true\n");
  });
});

describe("every content type becomes its McpContent member, fields as the protocol names them", () => {
  test("text, image (with annotations), audio, text and blob resources, and a resource link", async () => {
    const servers = { media: { command: "bun", args: [join(FIXTURES, "media-server.ts")] } };
    const dir = project({ mcp_servers: servers }, "").dir;
    const imported = await runLumaAsync(["mcp", "import", "media"], { cwd: dir });
    expect(imported.stderr).toBe("");
    const p = project(
      { mcp_servers: servers },
      `${imported.stdout}
r = tool media({})
print(r.text)
for c in r.content {
  if c.kind == "McpImage" {
    print("{c.kind} {c.mimeType} {c.data} {c.annotations.priority}")
  } else if c.kind == "McpAudio" {
    print("{c.kind} {c.mimeType} {c.data}")
  } else if c.kind == "McpResource" {
    print("{c.kind} {c.uri} {c.mimeType} {c.text} {c.blob}")
  } else if c.kind == "McpResourceLink" {
    print("{c.kind} {c.uri} {c.name} {c.title} {c.size}")
  } else if c.kind == "McpText" {
    print("{c.kind} {c.text}")
  }
}
`,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "five blocks follow",
        "McpText five blocks follow",
        "McpImage image/png iVBORw0KGgo= 0.5",
        "McpAudio audio/wav UklGRiQAAABXQVZF",
        "McpResource file:///notes.txt text/plain a note null",
        "McpResource file:///logo.bin application/octet-stream null AAEC",
        "McpResourceLink file:///report.pdf report The report 1234",
        "",
      ].join("\n"),
    );
  });
});
