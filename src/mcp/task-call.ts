/**
 * A call to a task-based tool (the protocol's tasks: call now, fetch later). A tool whose
 * server lists `execution.taskSupport: "required"` refuses a plain `tools/call`; it is
 * called with a task, and the SDK's stream polls `tasks/get` until the task ends, then reads
 * `tasks/result`. To the pipeline it is one call like any other: the same signal bounds it
 * (aborting it stops the polling), and its final result is read as a plain call's is.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";

interface CallParams {
  name: string;
  arguments: Record<string, unknown>;
}

export async function callAsTask(client: Client, params: CallParams, options: RequestOptions): Promise<Record<string, unknown>> {
  for await (const message of client.experimental.tasks.callToolStream(params, undefined, { ...options, task: options.task ?? {} })) {
    if (message.type === "result") return message.result as Record<string, unknown>;
    if (message.type === "error") throw message.error;
  }
  throw new Error(`the task of tool '${params.name}' ended without a result`);
}
