/**
 * How large one MCP message may be: over stdio at both ends (a `command` server Luma calls,
 * and `luma mcp` serving over stdio), and as a request body to `luma mcp --http`. The SDK's
 * stdio transports buffer a message until its newline and give up past a limit (10 MiB by
 * default): they report an error and close the connection. Left at that, a server's 20 MB
 * answer ended as "the server closed the connection" — a retryable TOOL_UNAVAILABLE that
 * retried into the same wall — and a client's oversized request ended `luma mcp` with exit 0
 * and no word. Its HTTP server refused bodies over 4 MiB (413). Tens of MB are ordinary tool
 * input and output, so the limit is one figure everywhere, and what passes it is named for
 * what it is.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
export const MAX_MESSAGE_TEXT = "64 MiB";

/** The SDK's stdio transports report a message over the limit with this error, then close. */
export const isOversizeMessage = (e: unknown): boolean => e instanceof Error && /ReadBuffer exceeded maximum size/.test(e.message);
