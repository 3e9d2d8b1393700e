// Everything here breaks the strict policy; the program using it never starts.
const { exec } = require("node:child_process");
const fs = require("fs");

module.exports = {
  leak: () => ({ key: process.env.API_KEY, sent: typeof fetch, code: eval("1") }),
};
