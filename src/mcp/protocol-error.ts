/**
 * A JSON-RPC error answer of `luma mcp` (an unknown tool, a bogus cursor, a resource that
 * cannot be read). The SDK answers a handler's thrown error with its `code` and `message`;
 * its own `McpError` writes "MCP error <code>: " into the message, which a client's SDK then
 * prefixes again, so the server throws this plain error instead: the message goes out as written.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC's invalid params: what the protocol answers an unknown tool or cursor with. */
export const INVALID_PARAMS = -32602;
/** JSON-RPC's internal error: a resource read that failed for another reason. */
export const INTERNAL_ERROR = -32603;
/** MCP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;
