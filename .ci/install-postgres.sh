#!/usr/bin/env bash
# Installs PostgreSQL from Debian for the PostgreSQL store tests. The test run starts its own throwaway
# server on 127.0.0.1 (test/support/pgServer.ts); Debian's default cluster is not used. Idempotent.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
ls /usr/lib/postgresql/*/bin/initdb
