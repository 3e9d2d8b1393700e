#!/usr/bin/env bash
# bubblewrap for `tool_module_policy.sandbox: "process"` (issue #30): each tool module runs in
# its own child confined by bwrap. Installs the Debian package when bwrap is missing; no
# server, nothing written to .ci/services.env. Without it the process-tier tests skip, saying so.
set -euo pipefail
if ! command -v bwrap >/dev/null 2>&1; then
  echo "bubblewrap: installing the bubblewrap Debian package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y bubblewrap >/dev/null || { apt-get update >/dev/null && apt-get install -y bubblewrap >/dev/null; }
fi
bwrap --version
