#!/usr/bin/env bash
# Installs headless Chromium from Debian for the playground's browser test (test/playground/browser.test.ts).
# Idempotent: returns at once when /usr/bin/chromium is already there. No browser download by npm.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
