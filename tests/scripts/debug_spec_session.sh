#!/usr/bin/env bash
# A script of the original debug command (seed 000) with its program name changed:
# `abapgit-agent debug …` became `abapdbg debug …`, nothing else. Every command and flag of
# the spec, from set to terminate, on ZCL_SMP_ORDER_STATS (samples/). The trigger, which the
# spec leaves to another command of its tool, is `abapdbg run`.
# Needs: `abapdbg` on PATH, ABAPDBG_URL & co. (a simulator with samples/), jq, WORK (a
# directory for the attach and trigger output). Exits non-zero at the first surprise.
set -euo pipefail
: "${WORK:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
CLASS=ZCL_SMP_ORDER_STATS

# Breakpoint management, every form of the spec.
abapdbg debug set --objects ZCL_SMP_ORDER_STATS:38,ZCL_SMP_ORDER_STATS:57 --json \
  | jq -e '[.breakpoints[].status] == ["verified","verified"]' >/dev/null \
  || fail "set --objects"
abapdbg debug set --files src/zcl_smp_order_stats.clas.abap:45 --json \
  | jq -e '.breakpoints[0].line == 45' >/dev/null || fail "set --files"
abapdbg debug set --object ZCL_SMP_ORDER_STATS --line 50 --json \
  | jq -e '.breakpoints[0].status == "verified"' >/dev/null || fail "set --object --line"
abapdbg debug set --objects ZCL_SMP_CALCULATOR:22 --include testclasses --json \
  | jq -e '.breakpoints[0].status == "verified"' >/dev/null || fail "set --include"
# A line the system refuses: the spec's tool exits 0 here; abapdbg exits 1, with the reason.
rc=0; abapdbg debug set --objects ZCL_SMP_ORDER_STATS:31 --json >/dev/null 2>&1 || rc=$?
test "$rc" = 1 || fail "a refused breakpoint exits 1 (got $rc)"
abapdbg debug list --json | jq -e '.breakpoints | length == 6' >/dev/null || fail "list"
abapdbg debug list | grep -q "ZCL_SMP_ORDER_STATS:38" || fail "list (human)"
# delete by the id the list prints (the system's id), by our id, by object and line.
sid=$(abapdbg debug list --json | jq -r '.breakpoints[] | select(.line == 45) | .server_id')
abapdbg debug delete --id "$sid" --json | jq -e '.deleted | length == 1' >/dev/null \
  || fail "delete --id <system id>"
id=$(abapdbg debug list --json | jq -r '.breakpoints[] | select(.location | test("testclasses")) | .id')
abapdbg debug delete --id "$id" --json >/dev/null || fail "delete --id <id>"
abapdbg debug delete --object ZCL_SMP_ORDER_STATS --line 50 --json \
  | jq -e '.deleted | length == 1' >/dev/null || fail "delete --object --line"
abapdbg debug delete --object ZCL_SMP_ORDER_STATS --line 31 >/dev/null || fail "delete the refused"

# The spec's scripted flow. Step 1: the listener (wait for its marker).
abapdbg debug attach --json --timeout 60 > "$WORK/attach.out" 2>&1 &
ATTACH=$!
for _ in $(seq 1 200); do grep -q "Listener active" "$WORK/attach.out" 2>/dev/null && break; sleep 0.3; done
grep -q "Listener active" "$WORK/attach.out" || fail "no Listener active"
# Step 2: the trigger, kept alive in the background.
abapdbg run "$CLASS" > "$WORK/trigger.out" 2>&1 &
TRIGGER=$!
# Step 3: the session from the attach output.
SESSION=""
for _ in $(seq 1 60); do
  SESSION=$(grep -o '"session":"[^"]*"' "$WORK/attach.out" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
  [ -n "$SESSION" ] && break
  sleep 0.5
done
[ -n "$SESSION" ] || fail "no session in the attach output"
wait "$ATTACH" || fail "attach failed"

# Step 4: stack, variables, steps.
abapdbg debug stack --json | jq -e '.frames[0].line == 38' >/dev/null || fail "stack"
abapdbg debug stack | grep -q "ZCL_SMP_ORDER_STATS:38" || fail "stack (human)"
abapdbg debug vars --json | jq -e '[.variables[].name] | index("LT_ORDERS") != null' >/dev/null \
  || fail "vars"
abapdbg debug vars --name lt_orders --json | jq -e '.variables[0].rows == 4' >/dev/null \
  || fail "vars --name"
abapdbg debug vars --expand LT_ORDERS --json | jq -e '.variables | length == 4' >/dev/null \
  || fail "vars --expand"
abapdbg debug step --type over --json | jq -e '.stop.frame.line == 39' >/dev/null \
  || fail "step over"
abapdbg debug step --type into --json | jq -e '.stop.frame.method == "LARGEST"' >/dev/null \
  || fail "step into"
# continue stops again at the next breakpoint, and says so (the spec's tool claims the end).
abapdbg debug step --type continue --json | jq -e '.stop.frame.line == 57' >/dev/null \
  || fail "continue to the next breakpoint"
# Human vars: a structure's VALUE summarizes its components (its TYPE says it is one).
abapdbg debug vars | grep -Eq '^RS_ORDER +Parameters +Structure: [a-z]+ +ID=0, CUSTOMER=, AMOUNT=0' \
  || fail "vars (human): a structure's summary: $(abapdbg debug vars)"
# The field symbol the loop assigned is listed in the method's locals (the system lists none:
# the session asks for the ones the method declares), in JSON and for a person.
abapdbg debug vars --json \
  | jq -e '[.variables[] | select(.name == "<LS_ORDER>" and .scope == "Locals" and .meta == "structure")] | length == 1' \
  >/dev/null || fail "vars lists <LS_ORDER>: $(abapdbg debug vars --json)"
abapdbg debug vars | grep -Eq '^<LS_ORDER> +Locals +Structure: [a-z]+ +ID=' \
  || fail "vars (human) lists <LS_ORDER>: $(abapdbg debug vars)"
# The spec's quoting of a field symbol; its components named as get names them.
abapdbg debug vars --expand "'<LS_ORDER>'" --json \
  | jq -e '[.variables[] | select(.name == "AMOUNT" and .id == "<LS_ORDER>-AMOUNT")] | length == 1' \
  >/dev/null || fail "vars --expand quoted: component ids"
abapdbg get '<LS_ORDER>-AMOUNT' --json | jq -e '.variable.name == "AMOUNT"' >/dev/null \
  || fail "get names the component as vars --expand does"
abapdbg debug vars --expand "'<LS_ORDER>'" --json \
  | jq -e '[.variables[].name] | index("AMOUNT") != null' >/dev/null || fail "vars --expand quoted"
abapdbg debug step --type out --json | jq -e '.stop.frame.method == "IF_OO_ADT_CLASSRUN~MAIN"' >/dev/null \
  || fail "step out"
# terminate succeeds and says so (the spec's tool reports it as an error).
abapdbg debug terminate --json | jq -e '.ended.reason == "terminated"' >/dev/null || fail "terminate"
wait "$TRIGGER" || true
abapdbg debug delete --all >/dev/null || fail "delete --all"
abapdbg debug list --json | jq -e '.breakpoints == []' >/dev/null || fail "all deleted"
echo "spec script done"
