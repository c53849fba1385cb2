// A whole debug session against the abapdbg simulator, driven by abap-adt-api, an ADT client
// written and verified against real SAP systems, used unchanged; then its dumps feed. Exits non-zero with a message
// on the first expectation that does not hold; prints one line per step on success.
import { ADTClient, session_types } from "abap-adt-api";

const [url, user, password] = process.argv.slice(2);
if (!url || !user || !password) {
  console.error("usage: node adt_api_session.mjs URL USER PASSWORD");
  process.exit(2);
}
const CLASS = "ZCL_ABAPDBG_DEMO";
const SOURCE = "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main";
const terminalId = "71999B60AA6349CF91D0A23773B3C728";
const ideId = "0B1A2F3E4D5C6B7A8F9E0D1C2B3A4F5E";

function expect(cond, what, got) {
  if (!cond) {
    console.error(`FAIL: ${what}${got === undefined ? "" : `: ${JSON.stringify(got)}`}`);
    process.exit(1);
  }
  console.log(`ok: ${what}`);
}

const client = () => new ADTClient(url, user, password, "001", "EN");

const main = client();
await main.login();
expect(true, "login");

const bps = await main.debuggerSetBreakpoints(
  "user", terminalId, ideId, "abapdbg-conformance", [`${SOURCE}#start=48`, `${SOURCE}#start=30`], user,
  "external", false, false, SOURCE);
const accepted = bps.filter((b) => b.id);
const refused = bps.filter((b) => !b.id);
expect(accepted.length === 1 && accepted[0].id.includes("LINE_NR=2"), "breakpoint on line 48 accepted (method include line 2)", bps);
expect(refused.length === 1 && /Cannot create a breakpoint/.test(refused[0].errorMessage), "breakpoint on a comment line refused in-band", refused);

const listener = client();
const conflict = await listener.debuggerListeners("user", terminalId, ideId, user);
expect(conflict === undefined, "no other listener", conflict);
const polled = listener.debuggerListen("user", terminalId, ideId, user);
await new Promise((r) => setTimeout(r, 300));

const runner = client();
const run = runner.runClass(CLASS);

const debuggee = await polled;
expect(debuggee && debuggee.DEBUGGEE_ID, "the listener reports the stop", debuggee);
expect(String(debuggee.DEBUGGEE_USER).toUpperCase() === user.toUpperCase(), "debuggee of our user", debuggee.DEBUGGEE_USER);

const dbg = client();
dbg.stateful = session_types.stateful;
const attach = await dbg.debuggerAttach("user", debuggee.DEBUGGEE_ID, user, true);
expect(attach.reachedBreakpoints.length === 1, "attach names the breakpoint reached", attach.reachedBreakpoints);

const stack = await dbg.debuggerStackTrace();
expect(stack.stack.length === 2, "two frames", stack.stack.map((s) => s.line));
expect(stack.stack[0].line === 48 && stack.stack[0].eventName === "LINE_TOTAL", "top frame LINE_TOTAL line 48", stack.stack[0]);

const root = await dbg.debuggerChildVariables(["@ROOT"]);
const scopeIds = root.hierarchies.filter((h) => h.PARENT_ID === "@ROOT").map((h) => h.CHILD_ID);
expect(scopeIds.includes("@PARAMETERS"), "scopes from @ROOT include @PARAMETERS", scopeIds);
const params = await dbg.debuggerChildVariables(["@PARAMETERS"]);
const qty = params.variables.find((v) => v.NAME === "IV_QUANTITY");
expect(qty && qty.VALUE === "1 ", "IV_QUANTITY is '1 ' (sign column kept)", qty && qty.VALUE);

const echo = await dbg.debuggerSetVariableValue("IV_PRICE", "20");
expect(String(echo).trim() === "20", "setVariableValue echoes the new value", echo);
await dbg.debuggerStep("stepOver");
const after = await dbg.debuggerVariables(["RV_TOTAL"]);
expect(after.length === 1 && after[0].VALUE.trim() === "20", "RV_TOTAL is 20 after the price was set to 20 and a step over", after);

await dbg.debuggerGoToStack(stack.stack[1].stackUri);
const callerRoot = await dbg.debuggerChildVariables(["@LOCALS"]);
const count = callerRoot.variables.find((v) => v.NAME === "LV_COUNT");
expect(count && count.VALUE.trim() === "1", "the caller's LV_COUNT after a frame switch", count);

// Back to the innermost frame (stepping always continues from there), out of the method,
// and one statement further with a step into.
await dbg.debuggerGoToStack(stack.stack[0].stackUri);
await dbg.debuggerStep("stepReturn");
const returned = await dbg.debuggerStackTrace();
expect(returned.stack.length === 1, "stepReturn leaves LINE_TOTAL", returned.stack.map((s) => `${s.eventName}:${s.line}`));
await dbg.debuggerStep("stepInto");
const into = await dbg.debuggerStackTrace();
expect(into.stack.length >= 1 && into.stack[0].line >= 35, "stepInto moves on", into.stack.map((s) => `${s.eventName}:${s.line}`));

// Continue through the remaining hits to the end.
let ended = false;
for (let i = 0; i < 5 && !ended; i++) {
  try {
    await dbg.debuggerStep("stepContinue");
  } catch (e) {
    ended = /debuggeeEnded|terminated/i.test(`${e.type || ""} ${e.message || ""} ${JSON.stringify(e.properties || {})}`);
    if (!ended) throw e;
  }
}
expect(ended, "the program ran to its end");
const output = await run;
expect(output.includes("Order A001: total 70, rate 12.50") && output.includes("Doubled rate: 25.00"), "the run's output shows the value set in the debugger", output);

await main.debuggerDeleteListener("user", terminalId, ideId, user);
await main.debuggerSetBreakpoints("user", terminalId, ideId, "abapdbg-conformance", [], user, "external", false, false, SOURCE);
expect(true, "listener and breakpoints removed");
await dbg.dropSession().catch(() => {});

// A class that divides by zero leaves a short dump; the client reads the simulator's dumps
// feed as it reads a real system's.
let died = false;
await runner.runClass("ZCL_SMP_DUMP_ZERODIV").catch(() => { died = true; });
expect(died, "a run that divides by zero fails");
const feed = await main.dumps();
expect(feed.dumps.length === 1, "the dumps feed lists one dump", feed);
const dump = feed.dumps[0];
const category = (label) => dump.categories.find((c) => c.label === label)?.term;
expect(category("ABAP runtime error") === "COMPUTE_INT_ZERODIVIDE", "its runtime error category", dump.categories);
expect(/^ZCL_SMP_DUMP_ZERODIV=+CP$/.test(category("Terminated ABAP program")), "its terminated program category", dump.categories);
expect(String(dump.author).toUpperCase() === user.toUpperCase(), "its author is our user", dump.author);
expect(dump.type === "html" && /Division by zero/.test(dump.text), "an HTML summary with the short text", dump);
expect(dump.links.some((l) => l.rel === "self" && /\/sap\/bc\/adt\/runtime\/dump\//.test(l.href)), "a self link to the dump", dump.links);
expect(feed.updated instanceof Date && !Number.isNaN(feed.updated.getTime()), "the feed's update time reads as a date", feed.updated);
const mine = await main.dumps(`and(equals(user,${user.toUpperCase()}))`);
expect(mine.dumps.length === 1, "a $query for our user keeps it", mine.dumps.length);
const nobody = await main.dumps("and(equals(user,NOBODY))");
expect(nobody.dumps.length === 0, "a $query for another user lists none", nobody.dumps.length);
console.log("conformance session ok");
