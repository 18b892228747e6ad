#!/usr/bin/env bash
# Installs headless Chromium from Debian for the playground's browser test (test/playground/browser.test.ts).
# Idempotent: returns at once when Chromium and the emoji font are there. No browser download by npm.
set -euo pipefail
# The emoji font: the bot's messages use emoji, and the README's screenshot shows them.
if [ -x /usr/bin/chromium ] && [ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fonts-noto-color-emoji >/dev/null
/usr/bin/chromium --version
