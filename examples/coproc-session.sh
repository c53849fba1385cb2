#!/usr/bin/env bash
# A whole debugging session driven from bash through `abapdbg serve` as a coprocess, with jq:
# set a breakpoint, run a class, wait for the stop, read variables, step, continue to the end,
# shut down. Copy it and change CLASS and BP_LINE.
#
# Needs: bash 4+, jq, abapdbg on PATH (or ABAPDBG_BIN). Without ABAPDBG_URL the session runs
# the embedded simulator, which bundles ZCL_ABAPDBG_ORDERS; with ABAPDBG_URL/USER/PASSWORD/
# CLIENT it debugs that system.
#
# The protocol (jsonl/PROTOCOL.md): one JSON object per line. We write requests
# {"id":N,"cmd":"…","args":{…}}; serve writes responses {"type":"response","id":N,"ok":…} and
# events {"type":"event","event":"stopped",…} in whatever order they happen, so every read
# below waits for the line it wants and keeps the others for later.
set -euo pipefail

ABAPDBG=${ABAPDBG_BIN:-abapdbg}
CLASS=${CLASS:-ZCL_ABAPDBG_ORDERS}
BP_LINE=${BP_LINE:-67}

# 1. Start the coprocess. DBG[0] reads its stdout, DBG[1] writes its stdin; keep copies of
#    both, as bash closes the coproc's own descriptors when the process ends.
coproc DBG { exec "$ABAPDBG" serve; }
exec {TO_DBG}>&"${DBG[1]}" {FROM_DBG}<&"${DBG[0]}"
SERVE_PID=$DBG_PID

die() { echo "error: $*" >&2; kill "$SERVE_PID" 2>/dev/null || true; exit 1; }

# 2. Send a request: send CMD [ARGS_JSON]; prints nothing, sets ID to the request's id.
NEXT_ID=0
send() {
  NEXT_ID=$((NEXT_ID + 1)); ID=$NEXT_ID
  jq -cn --argjson id "$ID" --arg cmd "$1" --argjson args "${2:-"{}"}" \
    '{id: $id, cmd: $cmd, args: $args}' >&"$TO_DBG"
}

# 3. Read until a line matches a jq filter; lines read on the way wait in PENDING.
#    await FILTER [SECONDS] sets LINE.
PENDING=()
await() {
  local filter=$1 secs=${2:-60} i raw
  for i in "${!PENDING[@]}"; do
    if jq -e "$filter" >/dev/null 2>&1 <<<"${PENDING[$i]}"; then
      LINE=${PENDING[$i]}; unset 'PENDING[i]'; PENDING=("${PENDING[@]}"); return 0
    fi
  done
  while IFS= read -r -t "$secs" raw <&"$FROM_DBG"; do
    if jq -e "$filter" >/dev/null 2>&1 <<<"$raw"; then LINE=$raw; return 0; fi
    PENDING+=("$raw")
  done
  die "nothing matched $filter within ${secs}s"
}
# The response to request ID (fails on an error response, printing its code and message).
response() {
  await "select(.type == \"response\" and .id == $1)"
  jq -e '.ok' >/dev/null <<<"$LINE" \
    || die "request $1: $(jq -r '.error | "\(.code): \(.message)"' <<<"$LINE")"
}
event() { await "select(.type == \"event\" and .event == \"$1\")" "${2:-60}"; }
# One request, waiting for its answer: call CMD [ARGS_JSON]; the result is in RESULT.
call() { send "$@"; response "$ID"; RESULT=$(jq -c '.result' <<<"$LINE"); }

# 4. The session: the first line is the ready event.
event ready
call hello
echo "protocol: $(jq -r '.protocol' <<<"$RESULT")"

call bp.set "{\"location\": \"$CLASS:$BP_LINE\"}"
echo "breakpoint: $(jq -r '.breakpoints[0] | "\(.id) \(.location) \(.status)"' <<<"$RESULT")"

# `run` answers when the program ends (with its output); the stop comes as an event first.
send run "{\"class\": \"$CLASS\"}"; RUN_ID=$ID
event stopped
echo "stopped at $(jq -r '.body.frame | "\(.object):\(.line)"' <<<"$LINE")"

call vars
echo "variables:"
jq -r '.variables[] | "  \(.name) = \(.value) (\(.type))"' <<<"$RESULT"

call step '{"type": "over"}'
echo "after step over: line $(jq -r '.stop.frame.line // "ended"' <<<"$RESULT")"

# Continue until the program ends (each continue answers the next stop or the end).
while :; do
  call step '{"type": "continue"}'
  [ "$(jq -r '.ended != null' <<<"$RESULT")" = true ] && break
done
response "$RUN_ID"
echo "output:"
jq -r '.result.output' <<<"$LINE" | sed 's/^/  /'

# 5. End the session: releases breakpoints and the listener; serve exits.
call shutdown
exec {TO_DBG}>&-
wait "$SERVE_PID" || die "serve exited with an error"
echo "done"
