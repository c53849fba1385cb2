#!/usr/bin/env bash
# Runs every test of abapdbg on a fresh machine: installs what the tests need, then checks
# formatting and lints, builds, and runs the whole suite (unit, simulator over HTTP, and the
# end-to-end tests with real processes and shells).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
command -v bash >/dev/null 2>&1 || need_apt+=(bash)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
# tests/completions.rs drives real zsh (in tmux) against the completion script ...
command -v zsh >/dev/null 2>&1 || need_apt+=(zsh)
# ... and real fish against completions/abapdbg.fish.
command -v fish >/dev/null 2>&1 || need_apt+=(fish)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "==> installing ${need_apt[*]} from Debian"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

echo "==> npm ci (abap-adt-api for the conformance test, pinned in tests/conformance)"
npm ci --prefix tests/conformance --no-audit --no-fund --loglevel=error
echo "==> npm ci (nu 0.115.1 for the Nushell plugin tests, pinned in tests/nu)"
npm ci --prefix tests/nu --no-audit --no-fund --loglevel=error
echo "==> npm ci (@vscode/debugadapter-testsupport for the DAP tests, pinned in tests/dap)"
npm ci --prefix tests/dap --no-audit --no-fund --loglevel=error
echo "==> npm ci (@modelcontextprotocol/sdk and ajv for the MCP tests, pinned in tests/mcp)"
npm ci --prefix tests/mcp --no-audit --no-fund --loglevel=error
# tests/nu.rs drives this nu (and tmux) against the plugin.
export NU_BIN="$PWD/tests/nu/node_modules/@nushell/linux-x64/bin/nu"

echo "==> cargo fmt --check"
cargo fmt --all -- --check
echo "==> cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
# Every published crate (all but the e2e and bench harnesses) packs as crates.io would take it:
# names, versions on the path dependencies, metadata, files. Reads the crates.io index.
echo "==> cargo package"
cargo package --workspace --exclude e2e --exclude bench --no-verify --allow-dirty --quiet
echo "==> build"
cargo build --workspace --all-targets --locked
echo "==> tests"
cargo test --workspace --locked
