// A tool module that passes the strict policy: CommonJS, so it runs in a node:vm context
// with the documented global list; it loads only `crypto`, which allow_builtins lists.
const { createHash } = require("node:crypto");

module.exports = {
  digest: (input) => ({ sha256: createHash("sha256").update(input.text).digest("hex").slice(0, 16) }),
};
