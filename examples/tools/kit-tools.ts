// Tool handlers for examples/086_tools_kit_port.luma (loaded with --tool-module): the
// agent-core Tools kit's `read-source` example, answered from memory.
export const lumaTools = {
  read_source: (input: { topic: string }) => ({ text: `Interface notes on ${input.topic}: tools are registered once, then sealed.` }),
};
