#!/usr/bin/env bash
# Drives one debugging session through `abapdbg serve` from a bash coproc, with jq.
# Needs: ABAPDBG_BIN (the binary), ABAPDBG_URL/USER/PASSWORD/CLIENT (a running simulator),
# TRANSCRIPT (file that receives every line the coprocess wrote).
# Exits non-zero with a message on the first expectation that does not hold.
set -euo pipefail

: "${ABAPDBG_BIN:?}" "${ABAPDBG_URL:?}" "${TRANSCRIPT:?}"
CLASS=ZCL_ABAPDBG_DEMO
: > "$TRANSCRIPT"

coproc DBG { exec "$ABAPDBG_BIN" serve --listener-poll-secs 5; }
# bash closes the coproc's descriptors when it exits: keep our own copies so the last lines
# (the shutdown response) can still be read after the process is gone.
exec {DBG_IN}>&"${DBG[1]}" {DBG_OUT}<&"${DBG[0]}"
SERVE_PID=$DBG_PID

fail() { echo "FAIL: $*" >&2; kill "$SERVE_PID" 2>/dev/null || true; exit 1; }
send() { printf '%s\n' "$1" >&"$DBG_IN"; }

# Lines read but not consumed yet; `await` looks there first. It sets LINE (no subshell, so
# the backlog survives).
BACKLOG=()
LINE=
await() {
  local filter=$1 i raw
  for i in "${!BACKLOG[@]}"; do
    if jq -e "$filter" >/dev/null 2>&1 <<<"${BACKLOG[$i]}"; then
      LINE=${BACKLOG[$i]}
      unset 'BACKLOG[i]'
      BACKLOG=("${BACKLOG[@]}")
      return 0
    fi
  done
  while IFS= read -r -t 30 raw <&"$DBG_OUT"; do
    printf '%s\n' "$raw" >> "$TRANSCRIPT"
    if jq -e "$filter" >/dev/null 2>&1 <<<"$raw"; then
      LINE=$raw
      return 0
    fi
    BACKLOG+=("$raw")
  done
  fail "no line matching: $filter"
}
response() { await "select(.type == \"response\" and .id == $1)"; }
event() { await "select(.type == \"event\" and .event == \"$1\")"; }
check() { # check JQ_FILTER DESCRIPTION: the filter must be true on LINE
  jq -e "$1" >/dev/null <<<"$LINE" || fail "$2 (got: $LINE)"
}
field() { jq -r "$1" <<<"$LINE"; }

# The first line is the ready event.
IFS= read -r -t 30 LINE <&"$DBG_OUT" || fail "no ready line"
printf '%s\n' "$LINE" >> "$TRANSCRIPT"
check '.type == "event" and .event == "ready" and .seq == 1 and .state == "idle"' "ready comes first"

send '{"id":1,"cmd":"hello"}'
response 1
check '.ok and (.result.protocol | startswith("abapdbg/1."))' "hello names the protocol"

# Bad input gets error responses with stable codes, and the session goes on.
send '{this is not json'
await 'select(.type == "response" and .ok == false and .id == null)'
check '.error.code == "protocol.parse_error"' "malformed line is a parse error"
send '{"id":"u1","cmd":"frobnicate"}'
response '"u1"'
check '.ok == false and .error.code == "protocol.unknown_command"' "unknown command"
send '{"id":2,"cmd":"stack"}'
response 2
check '.ok == false and .error.code == "state.not_stopped" and .state == "idle"' "stack while idle"

send "{\"id\":3,\"cmd\":\"bp.set\",\"args\":{\"location\":\"$CLASS:35\"}}"
response 3
check '.ok and .result.breakpoints[0].status == "verified" and .result.breakpoints[0].line == 35' "breakpoint on line 35 verified"
send "{\"id\":4,\"cmd\":\"bp.set\",\"args\":{\"location\":\"$CLASS:30\"}}"
response 4
check '.ok and .result.breakpoints[0].status == "rejected"' "breakpoint on a comment line rejected"
check '.result.breakpoints[0].reason | test("Cannot create a breakpoint")' "rejection carries the server reason"
check '.result.breakpoints[0].code == "breakpoint.not_executable"' "rejection has a stable code"

send '{"id":5,"cmd":"listen"}'
response 5
check '.ok' "listen accepted"
event listener.armed
check '.state == "listening"' "armed means listening"

send "{\"id\":6,\"cmd\":\"run\",\"args\":{\"class\":\"$CLASS\"}}"
event stopped
check ".state == \"stopped\" and .body.reason == \"breakpoint\" and .body.frame.line == 35 and .body.frame.object == \"$CLASS\"" "stopped at line 35"
check '.body.frame.uri | test("/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main#start=35")' "frame uri"
check '.body.epoch >= 1 and (.body.breakpoints | length) == 1' "stop names the breakpoint"
check '[.body.frame.source[] | select(.current)][0].text | test("lv_count = lv_count \\+ 1")' "stop carries the source line"

send '{"id":7,"cmd":"vars"}'
response 7
check '.ok and ([.result.variables[] | select(.name == "LV_COUNT")][0] | .value == "0" and .type == "I" and .id == "LV_COUNT" and (.meta | length > 0))' "LV_COUNT is 0"

send '{"id":8,"cmd":"stack"}'
response 8
check '.ok and .result.frames[0].line == 35 and (.result.frames[0].include | test("CM001$"))' "stack top is line 35 in CM001"

send '{"id":9,"cmd":"step","args":{"type":"over"}}'
response 9
check '.ok and .result.stop.frame.line == 36 and .state == "stopped"' "step over lands on line 36"
send '{"id":10,"cmd":"vars"}'
response 10
check '[.result.variables[] | select(.name == "LV_COUNT")][0].value == "1"' "LV_COUNT changed to 1"

# Continue: the loop re-hits line 35 twice more, then the program ends.
for n in 11 12 13 14; do
  send "{\"id\":$n,\"cmd\":\"step\",\"args\":{\"type\":\"continue\"}}"
  response "$n"
  check '.ok' "continue $n"
  if [ "$(field '.result.ended != null')" = true ]; then break; fi
  check '.result.stop.frame.line == 35 and .result.stop.reason == "breakpoint"' "re-hit on line 35"
done
[ "$(field '.result.ended != null')" = true ] || fail "the program did not end after continuing"
event debuggee.ended
check '.state == "ended" and .body.reason == "finished"' "debuggee.ended after the run finished"

response 6
check '.ok and .result.output == "Order A001: total 60, rate 12.50\nDoubled rate: 25.00"' "the run's output"

send '{"id":15,"cmd":"wait","args":{"until":"ended","timeout_ms":1000}}'
response 15
check '.ok and .result.reached == true' "wait until ended is satisfied"
send '{"id":16,"cmd":"wait","args":{"until":"stopped","timeout_ms":200}}'
response 16
check '.ok and .result.reached == false' "wait with nothing to wait for times out without failing"

send '{"id":17,"cmd":"shutdown"}'
response 17
check '.ok and .result.receipt.listener_stopped == true and .result.receipt.breakpoints_deleted == 1' "shutdown receipt (line 30 was rejected: never on the system)"
exec {DBG_IN}>&-
wait "$SERVE_PID" || fail "serve exited with an error"

# Every line carries state, and seq strictly increases.
jq -s -e 'all(.[]; .state != null) and ([.[].seq] | . == (sort | unique))' "$TRANSCRIPT" >/dev/null \
  || fail "seq not strictly increasing or a line without state"
echo "session ok: $(wc -l < "$TRANSCRIPT") lines"
