#!/usr/bin/env bash
# Chromium for `luma ui`'s browser tests (issue #31 §1, tests/ui/): headless, driven by the
# playwright-core dev dependency. Installs the Debian package when it is missing; no server,
# nothing written to .ci/services.env. Under CI=true the browser tests fail without it
# (elsewhere they skip, saying so).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium: installing the chromium Debian package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi
chromium --version
