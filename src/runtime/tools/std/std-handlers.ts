/**
 * The handlers of luma:std's tools, one row per tool (`language/std-tools.ts` declares
 * them): the registry gives each declared std tool its handler from here, bound to the
 * run's settings (`std-settings.ts`), so every call goes through the whole pipeline.
 */
import type { ToolHandler } from "../../../luma-module";
import type { StdToolName } from "../../../language/std-tools";
import { listDirTool, readFileTool, writeFileTool } from "./std-file-tools";
import { httpGetTool, httpSendTool } from "./std-http-tools";
import type { StdSettings } from "./std-settings";

export const STD_HANDLERS: Readonly<Record<StdToolName, (settings: StdSettings) => ToolHandler>> = {
  read_file: readFileTool,
  list_dir: listDirTool,
  write_file: writeFileTool,
  http_get: httpGetTool,
  http_send: httpSendTool,
};

/** The std tools that touch files: a program that imports one needs an existing files root. */
export const STD_FILE_TOOLS: ReadonlySet<StdToolName> = new Set(["read_file", "list_dir", "write_file"]);
