// A third-party DAP client, DebugClient of @vscode/debugadapter-testsupport (pinned in
// package.json), drives `abapdbg dap` against a simulator process, as an editor would.
//
// Run by tests/dap.rs, which starts `abapdbg sim --programs tests/abap` and passes:
//   ABAPDBG_BIN        the abapdbg binary (the adapter is `abapdbg dap`)
//   DAP_SIM_URL        the simulator (its admin state is checked after each session)
//   DAP_FIXTURES       tests/abap (abapGit files of ZCL_NU_ORDERS)
//   DAP_DEMO_SOURCE    crates/sim/samples/zcl_abapdbg_demo.clas.abap (bundled by the simulator)
//   DAP_SAMPLES        samples/ (loaded too: ZCL_SMP_ZERO_DIVIDE, ZCL_SMP_CALCULATOR)
//   DAP_ORDERS_SOURCE  crates/sim/samples/zcl_abapdbg_orders.clas.abap (bundled)
// plus ABAPDBG_PASSWORD and private ABAPDBG_RUNTIME_DIR / ABAPDBG_STATE_DIR.
//
// Expected values come from the ABAP source: ZCL_NU_ORDERS fills LT_ITEMS with 300 rows
// (row i: amount i * 1.25, note `item i`), stops at line 68 (`out->write( |{ lv_count } items
// for { lv_name }| )`), line 69 adds one to LV_COUNT and line 70 prints `done { lv_count }`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';

const BIN = process.env.ABAPDBG_BIN;
const SIM = process.env.DAP_SIM_URL;
const FIXTURES = process.env.DAP_FIXTURES;
const DEMO_SOURCE = process.env.DAP_DEMO_SOURCE;
const SAMPLES = process.env.DAP_SAMPLES;
const BUNDLED_ORDERS = process.env.DAP_ORDERS_SOURCE;
const RUNTIME_DIR = process.env.ABAPDBG_RUNTIME_DIR;
const ORDERS_FILE = path.join(FIXTURES, 'zcl_nu_orders.clas.abap');
const ZERO_DIVIDE_FILE = path.join(SAMPLES, 'zcl_smp_zero_divide.clas.abap');
const CALCULATOR_TESTS_FILE = path.join(SAMPLES, 'zcl_smp_calculator.clas.testclasses.abap');
// Generous bounds for events that will come; a loaded machine is slow.
const EVENT_WAIT = 60_000;

const system = { url: SIM, user: 'DEVELOPER', client: '001' };
// The adapter's environment names no system (a configuration without one means the embedded
// simulator); the one-shot CLI, another client of the same session, gets it in its own.
const onSystem = { ...process.env, ABAPDBG_URL: SIM, ABAPDBG_USER: 'DEVELOPER', ABAPDBG_CLIENT: '001' };

/** Console lines of every adapter of this run, for failure messages. */
const consoleLines = [];

function adapter() {
  const dc = new DebugClient(BIN, 'dap', 'abap', { env: process.env }, true);
  dc.defaultTimeout = EVENT_WAIT;
  dc.on('output', (ev) => ev.body.category === 'console' && consoleLines.push(ev.body.output));
  return dc;
}

/** Every `output` event from now on, by category. */
function collectOutput(dc) {
  const seen = [];
  dc.on('output', (ev) => seen.push(ev.body));
  return seen;
}

/** The simulator's admin state holds nothing of DEVELOPER's: no listener, breakpoint or
 *  stopped program. The adapter's session may take a moment to end after `disconnect`. */
async function assertNothingLeft(sim = SIM) {
  let state;
  for (let i = 0; i < 300; i++) {
    state = await (await fetch(`${sim}/sim/state`)).json();
    const listeners = (state.listeners ?? []).filter((l) => JSON.stringify(l).includes('DEVELOPER'));
    const bps = state.breakpoints?.DEVELOPER ?? [];
    const debuggees = (state.debuggees ?? []).filter((d) => d.user === 'DEVELOPER');
    if (listeners.length === 0 && bps.length === 0 && debuggees.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the simulator still holds something of ours: ${JSON.stringify(state)}\nadapter console:\n${consoleLines.join('')}`);
}

/** The session sockets under the runtime directory (their file names). */
function sockets() {
  return fs
    .readdirSync(RUNTIME_DIR, { recursive: true })
    .map((p) => path.basename(String(p)))
    .filter((name) => name.endsWith('.sock'));
}

async function variable(dc, reference, name) {
  const vars = (await dc.variablesRequest({ variablesReference: reference })).body.variables;
  const v = vars.find((x) => x.name === name);
  assert.ok(v, `${name} in ${JSON.stringify(vars.map((x) => x.name))}`);
  return v;
}

test('launch: breakpoints from abapGit files, a stop, the stack, a paged table, evaluate, next, setVariable, continue to the end', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  try {
    const init = await dc.initializeRequest();
    const caps = init.body;
    assert.equal(caps.supportsConfigurationDoneRequest, true);
    assert.equal(caps.supportsSetVariable, true);
    assert.equal(caps.supportsGotoTargetsRequest, true);
    assert.equal(caps.supportsHitConditionalBreakpoints, true);
    // ADT cannot interrupt a running program: not advertised.
    assert.notEqual(caps.supportsPauseRequest, true);
    assert.equal(caps.exceptionBreakpointFilters[0].supportsCondition, true);

    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_NU_ORDERS', ...system, allowWrites: true, sourceRoot: FIXTURES });
    await initialized;

    const set = await dc.setBreakpointsRequest({
      source: { path: ORDERS_FILE },
      breakpoints: [{ line: 68 }, { line: 30 }],
    });
    const [good, bad] = set.body.breakpoints;
    assert.equal(good.verified, true, JSON.stringify(good));
    assert.equal(good.line, 68);
    assert.equal(bad.verified, false, JSON.stringify(bad));
    assert.match(bad.message, /Cannot create a breakpoint/);

    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    assert.equal(stop.reason, 'breakpoint');
    assert.deepEqual(stop.hitBreakpointIds, [good.id]);

    const threads = (await dc.threadsRequest()).body.threads;
    assert.equal(threads.length, 1);
    assert.equal(threads[0].id, stop.threadId);
    assert.match(threads[0].name, /ZCL_NU_ORDERS/);

    const frames = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames;
    assert.equal(frames[0].line, 68);
    assert.equal(frames[0].name, 'ZCL_NU_ORDERS->IF_OO_ADT_CLASSRUN~MAIN');
    // The frame's source is the local abapGit file of the workspace.
    assert.equal(frames[0].source.path, ORDERS_FILE);

    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    const names = scopes.map((s) => s.name);
    assert.ok(names.includes('Locals') && names.includes('Parameters'), JSON.stringify(names));
    const locals = scopes.find((s) => s.name === 'Locals').variablesReference;

    const count = await variable(dc, locals, 'LV_COUNT');
    assert.equal(count.value, '300');
    const hex = (await dc.variablesRequest({ variablesReference: locals, format: { hex: true } })).body.variables;
    assert.equal(hex.find((v) => v.name === 'LV_COUNT').value, '0x12C');
    const items = await variable(dc, locals, 'LT_ITEMS');
    assert.equal(items.indexedVariables, 300);
    assert.ok(items.variablesReference > 0);

    // A page of three rows from the middle of the table.
    const page = (
      await dc.variablesRequest({ variablesReference: items.variablesReference, filter: 'indexed', start: 100, count: 3 })
    ).body.variables;
    assert.deepEqual(page.map((r) => r.name), ['[101]', '[102]', '[103]']);
    assert.equal(page[1].evaluateName, 'LT_ITEMS[102]');
    const amount = await variable(dc, page[1].variablesReference, 'AMOUNT');
    assert.equal(amount.value, '127.50');
    const note = await variable(dc, page[1].variablesReference, 'NOTE');
    assert.equal(note.value, 'item 102');

    // Hovers and the console read variable paths.
    const hover = await dc.evaluateRequest({ expression: 'lt_items[3]-note', frameId: frames[0].id, context: 'hover' });
    assert.equal(hover.body.result, 'item 3');
    const name = await dc.evaluateRequest({ expression: 'LV_NAME', frameId: frames[0].id, context: 'repl' });
    assert.match(name.body.result, /^ACME\s*$/);
    const unknown = await dc.evaluateRequest({ expression: 'LV_NOPE', frameId: frames[0].id, context: 'watch' }).then(
      () => null,
      (e) => e,
    );
    assert.ok(unknown, 'an unknown variable is an error');

    // Over line 68 (it prints the first line) to 69.
    const stepped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: stop.threadId });
    assert.equal((await stepped).body.reason, 'step');
    const at69 = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    assert.equal(at69.line, 69);
    // The references of the earlier stop are gone.
    const stale = await dc.variablesRequest({ variablesReference: locals }).then(
      () => null,
      (e) => e,
    );
    assert.ok(stale, 'a reference of an earlier stop is refused');

    const locals69 = (await dc.scopesRequest({ frameId: at69.id })).body.scopes.find((s) => s.name === 'Locals');
    const changed = await dc.setVariableRequest({ variablesReference: locals69.variablesReference, name: 'LV_COUNT', value: '5' });
    assert.equal(changed.body.value, '5');
    // A watch expression can be assigned too (NUMC 4 keeps its zeros).
    const watched = await dc.customRequest('setExpression', { expression: 'ls_order-number', value: '7', frameId: at69.id });
    assert.equal(watched.body.value, '0007');

    const terminated = dc.waitForEvent('terminated');
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: stop.threadId });
    await terminated;
    assert.equal((await exited).body.exitCode, 0);
    // Line 69 made 6 of the 5 we set: the program's output changed.
    const printed = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.equal(printed, '300 items for ACME\ndone 6\n');
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
  }
  await assertNothingLeft();
});

test('attach: a program started by another client is caught, inspected and let go', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  let runner;
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.attachRequest({ ...system });
    await initialized;
    // A condition in ABAP: the first call (quantity 1) passes.
    const set = await dc.setBreakpointsRequest({
      source: { path: DEMO_SOURCE },
      breakpoints: [{ line: 48, condition: 'iv_quantity = 2' }],
    });
    assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));
    await dc.configurationDoneRequest();

    // Another client of the same session starts the program: the one-shot CLI.
    const stopped = dc.waitForEvent('stopped');
    runner = spawn(BIN, ['run', 'ZCL_ABAPDBG_DEMO', '--json'], { env: onSystem, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (await stopped).body;
    assert.equal(stop.reason, 'breakpoint');

    const frames = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames;
    assert.equal(frames[0].line, 48);
    assert.equal(frames[0].name, 'ZCL_ABAPDBG_DEMO->LINE_TOTAL');
    assert.equal(frames[0].source.path, DEMO_SOURCE);
    assert.equal(frames[1].line, 36);
    const quantity = await dc.evaluateRequest({ expression: 'iv_quantity', frameId: frames[0].id, context: 'hover' });
    assert.equal(quantity.body.result, '2');
    // The caller's frame has its own variables.
    const callerScopes = (await dc.scopesRequest({ frameId: frames[1].id })).body.scopes;
    const callerLocals = callerScopes.find((s) => s.name === 'Locals').variablesReference;
    assert.equal((await variable(dc, callerLocals, 'LV_COUNT')).value, '2');

    // Without writes allowed, setVariable is refused and says why.
    const refused = await dc
      .setVariableRequest({ variablesReference: callerLocals, name: 'LV_COUNT', value: '7' })
      .then(() => null, (e) => e);
    assert.match(String(refused?.message), /allowWrites/);

    // No more stops: the program runs to its end, and what it printed comes as output.
    await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [] });
    const ended = new Promise((resolve) => dc.on('thread', (ev) => ev.body.reason === 'exited' && resolve(ev.body)));
    await dc.continueRequest({ threadId: stop.threadId });
    assert.equal((await ended).threadId, stop.threadId);
    const printed = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.equal(printed, 'Order A001: total 60, rate 12.50\nDoubled rate: 25.00\n');
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
    runner?.kill();
  }
  await assertNothingLeft();
});

test('breakpoint kinds: a hit condition, an exception filter, a refused method breakpoint; goto; a signal releases', async () => {
  const dc = adapter();
  await dc.start();
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_SMP_ZERO_DIVIDE', ...system, allowWrites: true });
    await initialized;
    // RATIO's line 37: the hit condition lets the first two calls (iv_b = 1, 0) pass.
    const line = await dc.setBreakpointsRequest({
      source: { path: ZERO_DIVIDE_FILE },
      breakpoints: [{ line: 37, hitCondition: '3' }, { line: 36, hitCondition: 'often' }],
    });
    assert.equal(line.body.breakpoints[0].verified, true, JSON.stringify(line.body));
    assert.equal(line.body.breakpoints[1].verified, false);
    assert.match(line.body.breakpoints[1].message, /hit condition/);

    const noClass = await dc.setExceptionBreakpointsRequest({ filters: ['abap-exceptions'] });
    assert.equal(noClass.body.breakpoints[0].verified, false);
    assert.match(noClass.body.breakpoints[0].message, /exception classes/);
    const exceptions = await dc.setExceptionBreakpointsRequest({
      filters: [],
      filterOptions: [{ filterId: 'abap-exceptions', condition: 'cx_sy_zerodivide' }],
    });
    assert.equal(exceptions.body.breakpoints[0].verified, true, JSON.stringify(exceptions.body));

    const method = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'ZCL_SMP_ZERO_DIVIDE=>RATIO' }] });
    assert.equal(method.body.breakpoints[0].verified, false);
    assert.match(method.body.breakpoints[0].message, /no method breakpoints/);

    // The division by zero (second call) stops at its CATCH first.
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const caught = (await stopped).body;
    assert.equal(caught.reason, 'exception');
    assert.equal(caught.text, 'CX_SY_ZERODIVIDE');
    const info = (await dc.exceptionInfoRequest({ threadId: caught.threadId })).body;
    assert.equal(info.exceptionId, 'CX_SY_ZERODIVIDE');
    assert.equal(info.breakMode, 'always');
    assert.equal(info.details.typeName, 'CX_SY_ZERODIVIDE');
    assert.match(info.description, /CX_SY_ZERODIVIDE is caught here/);
    const atCatch = (await dc.stackTraceRequest({ threadId: caught.threadId })).body.stackFrames[0];
    assert.equal(atCatch.line, 30);

    // Back to the loop's first statement without running anything on the way (a write action).
    const targets = (await dc.gotoTargetsRequest({ source: { path: ZERO_DIVIDE_FILE }, line: 27 })).body.targets;
    assert.equal(targets[0].line, 27);
    stopped = dc.waitForEvent('stopped');
    await dc.gotoRequest({ threadId: caught.threadId, targetId: targets[0].id });
    assert.equal((await stopped).body.reason, 'goto');
    const jumped = (await dc.stackTraceRequest({ threadId: caught.threadId })).body.stackFrames[0];
    assert.equal(jumped.line, 27);

    // The second iteration again: RATIO's third hit, with the divisor of the second.
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: caught.threadId });
    const third = (await stopped).body;
    assert.equal(third.reason, 'breakpoint');
    assert.deepEqual(third.hitBreakpointIds, [line.body.breakpoints[0].id]);
    const top = (await dc.stackTraceRequest({ threadId: third.threadId })).body.stackFrames[0];
    assert.equal(top.line, 37);
    assert.equal((await dc.evaluateRequest({ expression: 'iv_b', frameId: top.id, context: 'hover' })).body.result, '0');
  } finally {
    // No disconnect: the editor just ends the adapter (SIGTERM). It releases all the same.
    dc.stopAdapter();
  }
  await assertNothingLeft();
});

test('ABAP Unit: a breakpoint in the test classes, step into the tested class (its source from the system), step out, the result as output', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ test: 'ZCL_SMP_CALCULATOR', method: 'adds', ...system });
    await initialized;
    const set = await dc.setBreakpointsRequest({ source: { path: CALCULATOR_TESTS_FILE }, breakpoints: [{ line: 22 }] });
    assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));

    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    let frames = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames;
    assert.equal(frames[0].line, 22);
    assert.equal(frames[0].source.path, CALCULATOR_TESTS_FILE);

    stopped = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: stop.threadId });
    await stopped;
    frames = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames;
    assert.match(frames[0].name, /ZCL_SMP_CALCULATOR->ADD/);
    // The workspace has no main source of the class: it comes from the system.
    const ref = frames[0].source.sourceReference;
    assert.ok(ref > 0, JSON.stringify(frames[0].source));
    const content = (await dc.sourceRequest({ sourceReference: ref, source: frames[0].source })).body.content;
    const lines = content.split('\n');
    assert.match(lines[frames[0].line - 1], /iv_a \+ iv_b|iv_a|rv_/i, lines[frames[0].line - 1]);
    assert.match(content, /CLASS zcl_smp_calculator IMPLEMENTATION/i);

    stopped = dc.waitForEvent('stopped');
    await dc.stepOutRequest({ threadId: stop.threadId });
    await stopped;
    frames = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames;
    assert.equal(frames[0].source.path, CALCULATOR_TESTS_FILE);

    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: stop.threadId });
    await terminated;
    const printed = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.match(printed, /ZCL_SMP_CALCULATOR: 1 passed, 0 failed/);
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
  }
  await assertNothingLeft();
});

test('a breakpoint set while the system is down is pending, a breakpoint event says when it is set; the end of the input releases', async () => {
  // A port nothing listens on yet.
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const dc = adapter();
  await dc.start();
  let lateSim;
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.attachRequest({ url, user: 'DEVELOPER', client: '001' });
    await initialized;
    const set = await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [{ line: 48 }] });
    const pending = set.body.breakpoints[0];
    assert.equal(pending.verified, false, JSON.stringify(pending));
    assert.match(pending.message, /pending/);

    // The system comes up on that port: the session sets the breakpoint and the client hears.
    const changed = dc.waitForEvent('breakpoint');
    lateSim = spawn(BIN, ['sim', '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const event = (await changed).body;
    assert.equal(event.reason, 'changed');
    assert.equal(event.breakpoint.id, pending.id);
    assert.equal(event.breakpoint.verified, true, JSON.stringify(event));
    assert.equal(event.breakpoint.line, 48);
    // No configurationDone (nothing to catch here), no disconnect: the editor closes the
    // adapter's input. It releases and ends by itself.
    const proc = dc._adapterProcess;
    const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.stdin.end();
    assert.equal(await exited, 0);
  } finally {
    dc.stopAdapter();
  }
  try {
    await assertNothingLeft(url);
  } finally {
    lateSim?.kill();
  }
});

test('a log point prints and goes on; a function breakpoint on an ABAP statement; terminate ends the stopped program: its run fails, the debug session ends', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_ABAPDBG_DEMO', ...system });
    await initialized;
    const fn = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'if' }] });
    assert.equal(fn.body.breakpoints[0].verified, true, JSON.stringify(fn.body));
    // A log point in the loop (line 35, before `lv_count = lv_count + 1`): printed, never shown stopped.
    const log = await dc.setBreakpointsRequest({
      source: { path: DEMO_SOURCE },
      breakpoints: [{ line: 35, logMessage: 'count {lv_count} total {lv_total} {{done}}' }],
    });
    assert.equal(log.body.breakpoints[0].verified, true, JSON.stringify(log.body));
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    const logged = output.filter((o) => o.category === 'console' && o.output.startsWith('count')).map((o) => o.output);
    assert.deepEqual(logged, ['count 0 total 0 {done}\n', 'count 1 total 10 {done}\n', 'count 2 total 30 {done}\n']);
    assert.equal(stop.reason, 'function breakpoint');
    assert.deepEqual(stop.hitBreakpointIds, [fn.body.breakpoints[0].id]);
    const frame = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    // The demo's only IF.
    assert.equal(frame.line, 38);
    const terminated = dc.waitForEvent('terminated');
    const exited = dc.waitForEvent('exited');
    await dc.terminateRequest();
    await terminated;
    assert.equal((await exited).body.exitCode, 1);
    const errors = output.filter((o) => o.category === 'stderr').map((o) => o.output).join('');
    assert.match(errors, /run\.failed|terminated/i);
    assert.equal(output.filter((o) => o.category === 'stdout').length, 0);
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
  }
  await assertNothingLeft();
});

test('two programs caught at once are two threads, each inspected and stepped on its own', async () => {
  const dc = adapter();
  await dc.start();
  const runners = [];
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.attachRequest({ ...system });
    await initialized;
    await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [{ line: 48 }] });
    await dc.configurationDoneRequest();

    const stops = [];
    const both = new Promise((resolve) =>
      dc.on('stopped', (ev) => {
        stops.push(ev.body);
        if (new Set(stops.map((s) => s.threadId)).size === 2) resolve();
      }),
    );
    for (let i = 0; i < 2; i++) {
      runners.push(spawn(BIN, ['run', 'ZCL_ABAPDBG_DEMO', '--json'], { env: onSystem, stdio: 'ignore' }));
    }
    await both;
    const threads = (await dc.threadsRequest()).body.threads;
    assert.equal(threads.length, 2, JSON.stringify(threads));
    const [a, b] = [...new Set(stops.map((s) => s.threadId))];

    // Step the one the session does not have current, then read both.
    const stepped = new Promise((resolve) =>
      dc.on('stopped', (ev) => ev.body.threadId === b && ev.body.reason === 'step' && resolve()),
    );
    await dc.nextRequest({ threadId: b });
    await stepped;
    const top = async (thread) => (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames[0];
    const fa = await top(a);
    const fb = await top(b);
    assert.equal(fa.line, 48);
    assert.notEqual(fb.line, 48);
    assert.equal((await dc.evaluateRequest({ expression: 'iv_quantity', frameId: fa.id })).body.result, '1');
    const callerOfB = (await dc.stackTraceRequest({ threadId: b })).body.stackFrames;
    assert.ok(callerOfB.length >= 1);
  } finally {
    // Attached: disconnect lets both run on (breakpoints gone first, so they do not stop again).
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
    for (const r of runners) r.kill();
  }
  await assertNothingLeft();
});

test('without a system anywhere: the embedded simulator, started and ended by the adapter', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_ABAPDBG_ORDERS' });
    await initialized;
    assert.deepEqual(sockets(), ['session-embedded.sock']);
    const set = await dc.setBreakpointsRequest({ source: { path: BUNDLED_ORDERS }, breakpoints: [{ line: 67 }] });
    assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    const frame = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    assert.equal(frame.line, 67);
    const items = await dc.evaluateRequest({ expression: 'lt_items', frameId: frame.id, context: 'watch' });
    assert.equal(items.body.indexedVariables, 300);
    const last = (
      await dc.variablesRequest({ variablesReference: items.body.variablesReference, start: 299, count: 5 })
    ).body.variables;
    assert.deepEqual(last.map((v) => v.name), ['[300]']);
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: stop.threadId });
    await terminated;
    const printed = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.equal(printed, '300 items for ACME\ndone 301\n');
    await dc.disconnectRequest({});
    // The session the adapter started is gone with it.
    assert.deepEqual(sockets(), []);
  } finally {
    dc.stopAdapter();
  }
});

test('a data breakpoint is an ADT watchpoint: the program stops where the variable changed', async () => {
  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  try {
    const caps = (await dc.initializeRequest()).body;
    assert.equal(caps.supportsDataBreakpoints, true);
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_ABAPDBG_DEMO', ...system });
    await initialized;
    // Before any stop there is no program to watch in.
    const early = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: 'LV_TOTAL' }] });
    assert.equal(early.body.breakpoints[0].verified, false);
    assert.match(early.body.breakpoints[0].message, /stopped program/);

    await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [{ line: 33 }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    const frame = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    const locals = (await dc.scopesRequest({ frameId: frame.id })).body.scopes.find((s) => s.name === 'Locals');
    await dc.variablesRequest({ variablesReference: locals.variablesReference });
    const info = (await dc.dataBreakpointInfoRequest({ variablesReference: locals.variablesReference, name: 'LV_TOTAL' })).body;
    assert.equal(info.dataId, 'LV_TOTAL');
    const set = await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId }] });
    assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));
    await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [] });

    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: stop.threadId });
    const changed = (await stopped).body;
    assert.equal(changed.reason, 'data breakpoint');
    const at = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    assert.equal((await dc.evaluateRequest({ expression: 'lv_total', frameId: at.id })).body.result, '10');

    // Taken away, the program runs to its end.
    await dc.setDataBreakpointsRequest({ breakpoints: [] });
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: stop.threadId });
    await terminated;
    const printed = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.equal(printed, 'Order A001: total 60, rate 12.50\nDoubled rate: 25.00\n');
  } finally {
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
  }
  await assertNothingLeft();
});

test('joining a running session: the adapter releases only what it added, and the session goes on', async () => {
  // The shell's session, with a breakpoint of the shell's own.
  const cli = (...args) => spawnSync(BIN, args, { env: onSystem, encoding: 'utf8' });
  const started = cli('serve', '--daemon');
  assert.equal(started.status, 0, started.stderr);
  const shellBp = cli('bp', 'set', 'ZCL_ABAPDBG_DEMO:36', '--json');
  assert.equal(shellBp.status, 0, shellBp.stderr);
  const dc = adapter();
  await dc.start();
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_ABAPDBG_DEMO', ...system });
    await initialized;
    assert.ok(consoleLines.some((l) => l.includes('joined the session')), consoleLines.join(''));
    const ours = (await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [{ line: 48 }] })).body
      .breakpoints[0];

    // The shell's breakpoint (line 36) stops first: a stop, but none of ours.
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const first = (await stopped).body;
    assert.equal(first.reason, 'breakpoint');
    assert.equal(first.hitBreakpointIds, undefined);
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: first.threadId });
    assert.deepEqual((await stopped).body.hitBreakpointIds, [ours.id]);
  } finally {
    // A launch: the program is ended.
    await dc.disconnectRequest({}).catch(() => {});
    dc.stopAdapter();
  }
  try {
    // The session runs on with the shell's breakpoint, and nothing of the adapter's.
    assert.ok(sockets().some((s) => s.startsWith('session-') && s !== 'session-embedded.sock'), String(sockets()));
    const state = await (await fetch(`${SIM}/sim/state`)).json();
    const bps = state.breakpoints?.DEVELOPER ?? [];
    assert.equal(bps.length, 1, JSON.stringify(state));
    assert.match(bps[0], /CM001/, 'the shell breakpoint is in the main method');
    assert.deepEqual(state.listeners, [], 'the listener the launch armed is disarmed');
    assert.deepEqual(state.debuggees.filter((d) => d.user === 'DEVELOPER'), []);
  } finally {
    const ended = cli('shutdown', '--json');
    assert.equal(ended.status, 0, ended.stderr);
  }
  await assertNothingLeft();
});

test('attach to a session with a program stopped already: shown at once; on disconnect it runs on and the shell keeps its listener', async () => {
  const cli = (...args) => spawnSync(BIN, args, { env: onSystem, encoding: 'utf8' });
  assert.equal(cli('bp', 'set', 'ZCL_ABAPDBG_DEMO:48', '--json').status, 0);
  // The one-shot run returns at the stop; the program stays stopped in the session.
  const run = cli('run', 'ZCL_ABAPDBG_DEMO', '--json');
  assert.equal(run.status, 0, run.stderr);
  assert.ok(JSON.parse(run.stdout).stop, run.stdout);
  const dc = adapter();
  await dc.start();
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.attachRequest({ ...system });
    await initialized;
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    assert.equal(stop.reason, 'entry');
    const frame = (await dc.stackTraceRequest({ threadId: stop.threadId })).body.stackFrames[0];
    assert.equal(frame.line, 48);
    assert.equal((await dc.evaluateRequest({ expression: 'iv_quantity', frameId: frame.id })).body.result, '1');
    // Attached: the program runs on (to the shell's breakpoint again, in the next call).
    await dc.disconnectRequest({});
  } finally {
    dc.stopAdapter();
  }
  try {
    const state = await (await fetch(`${SIM}/sim/state`)).json();
    assert.equal(state.listeners.length, 1, `the shell's listener stays: ${JSON.stringify(state)}`);
    const status = JSON.parse(cli('status', '--json').stdout);
    assert.equal(status.listener.wanted, true, JSON.stringify(status));
  } finally {
    assert.equal(cli('shutdown', '--json').status, 0);
  }
  await assertNothingLeft();
});

test('systemDebugging in the launch configuration: applied to the session before the program runs, shown in its status', async () => {
  const refused = adapter();
  await refused.start();
  try {
    await refused.initializeRequest();
    await assert.rejects(
      refused.launchRequest({ class: 'ZCL_ABAPDBG_DEMO', ...system, systemDebugging: 'yes' }),
      /'systemDebugging' must be true or false/,
    );
  } finally {
    refused.stopAdapter();
  }

  const dc = adapter();
  await dc.start();
  const output = collectOutput(dc);
  const cli = (...args) => spawnSync(BIN, args, { env: onSystem, encoding: 'utf8' });
  try {
    await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    await dc.launchRequest({ class: 'ZCL_ABAPDBG_DEMO', ...system, systemDebugging: true });
    await initialized;
    const set = await dc.setBreakpointsRequest({ source: { path: DEMO_SOURCE }, breakpoints: [{ line: 36 }] });
    assert.equal(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const stop = (await stopped).body;
    const notes = output.filter((o) => o.category === 'console').map((o) => o.output).join('');
    assert.match(notes, /abapdbg: system debugging on/);
    // The session holds the setting, and applied it to the program it caught.
    const status = cli('status', '--json');
    assert.equal(status.status, 0, status.stderr);
    const settings = JSON.parse(status.stdout).settings;
    assert.equal(settings.system_debugging, true, status.stdout);
    assert.equal(settings.create_exception_object, false, status.stdout);
    const human = cli('status');
    assert.match(human.stdout, /^settings +system-debugging on$/m, human.stdout);
    assert.ok(stop.threadId > 0);
    await dc.disconnectRequest({ terminateDebuggee: true });
  } finally {
    dc.stopAdapter();
  }
  await assertNothingLeft();
});
