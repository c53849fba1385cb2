#!/usr/bin/env bash
# Writes crates/abapdbg/link/hot-symbols.txt anew: the functions of `abapdbg serve` that run
# from start-up through `hello` and a typical debugging session on the embedded simulator,
# as callgrind saw them. Builds of the `dist` profile (and `release`) on x86-64 Linux place them side by side (see
# crates/abapdbg/build.rs), which keeps an idle coprocess small. Needs valgrind.
# Run it after larger changes to the coprocess, then compare `cargo run --profile dist -p bench --
# --only startup` before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
bin="${CARGO_TARGET_DIR:-target}/dist/abapdbg"
work=$(mktemp -d)
sim_pid=
cleanup() { [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export ABAPDBG_RUNTIME_DIR="$work/run" ABAPDBG_STATE_DIR="$work/state"

# Records one session of the binary just built into "$work/callgrind.out".
record_session() {
  "$bin" sim --programs samples >"$work/url" 2>/dev/null &
  sim_pid=$!
  for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
  url=$(head -n1 "$work/url")
  [ -n "$url" ] || { echo "the simulator did not start" >&2; exit 1; }

  coproc SERVE {
    ABAPDBG_URL="$url" ABAPDBG_USER=DEVELOPER ABAPDBG_PASSWORD=abap \
      valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
      "$bin" serve --no-socket 2>/dev/null
  }
  # Sends a request and reads lines up to its answer (events and other answers pass by).
  ask() {
    local id=$1 line
    printf '%s\n' "$2" >&"${SERVE[1]}"
    while IFS= read -r line <&"${SERVE[0]}"; do
      [ -n "${HOT_SYMBOLS_TRACE:-}" ] && echo "$line" >&2
      [[ $line == *"\"type\":\"response\",\"id\":$id,"* ]] && return 0
    done
    echo "serve ended before answering: $2" >&2
    exit 1
  }
  ask 1 '{"id":1,"cmd":"hello"}'
  ask 2 '{"id":2,"cmd":"status"}'
  ask 3 '{"id":3,"cmd":"bp.set","args":{"location":"ZCL_SMP_ORDER_STATS:38"}}'
  ask 4 '{"id":4,"cmd":"bp.list"}'
  # `run` is answered when the run ends: sent without waiting for it.
  printf '%s\n' '{"id":"run","cmd":"run","args":{"class":"ZCL_SMP_ORDER_STATS"}}' >&"${SERVE[1]}"
  ask 5 '{"id":5,"cmd":"wait","args":{"until":"stopped","timeout_ms":120000}}'
  ask 6 '{"id":6,"cmd":"stack"}'
  ask 7 '{"id":7,"cmd":"vars"}'
  ask 8 '{"id":8,"cmd":"get","args":{"path":"LT_ORDERS[1]-CUSTOMER"}}'
  ask 9 '{"id":9,"cmd":"table","args":{"id":"LT_ORDERS"}}'
  ask 10 '{"id":10,"cmd":"source"}'
  ask 11 '{"id":11,"cmd":"step","args":{"type":"into"}}'
  ask 12 '{"id":12,"cmd":"step","args":{"type":"over"}}'
  ask 13 '{"id":13,"cmd":"stack"}'
  ask 14 '{"id":14,"cmd":"vars"}'
  ask 15 '{"id":15,"cmd":"threads"}'
  ask 16 '{"id":16,"cmd":"shutdown"}'
  wait "$SERVE_PID" 2>/dev/null || true

  kill "$sim_pid" 2>/dev/null || true
  sim_pid=
}

# Every function callgrind saw run in the binary itself, each name once, as the linker
# knows it (mangled).
names() {
  awk -v bin="$(basename "$bin")" '
  # Names are given once, at an id'"'"'s first use, by whichever line comes first (a
  # caller'"'"'s cob=/cfn= too); later lines give the id alone.
  function learn(line, key, table,    id, name) {
    id = line; sub("^" key "=", "", id); sub(/\).*/, ")", id)
    name = line; sub("^" key "=\\([0-9]+\\) ?", "", name)
    if (name != "") table[id] = name
    return id
  }
  /^cob=\(/ { learn($0, "cob", obs); next }
  /^cfn=\(/ { learn($0, "cfn", fns); next }
  /^ob=\(/ { cur = obs[learn($0, "ob", obs)]; next }
  /^fn=\(/ {
    n = fns[learn($0, "fn", fns)]
    if (cur ~ ("/" bin "$") && n != "" && !(n in seen)) { seen[n] = 1; print n }
  }
  ' "$work/callgrind.out"
}

# A dependency built with other features has other symbol names: `cargo install --path
# crates/abapdbg` builds abapdbg alone, the benchmark builds the workspace. Both are recorded.
out=crates/abapdbg/link/hot-symbols.txt
: >"$work/names"
for scope in "-p abapdbg" "--workspace"; do
  # shellcheck disable=SC2086 # two words on purpose
  ABAPDBG_NO_SYMBOL_ORDER=1 cargo build --profile dist $scope
  record_session
  names >>"$work/names"
done
awk '!seen[$0]++' "$work/names" >"$out"
echo "$(wc -l <"$out") functions written to $out"
