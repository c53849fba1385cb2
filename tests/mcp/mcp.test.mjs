// The official MCP TypeScript SDK client (pinned in package.json) drives `abapdbg mcp` over
// stdio against a simulator process, as an agent host would. Run by tests/mcp.rs, which starts
// `abapdbg sim --programs tests/mcp/abap --programs samples` (see lib.mjs for the environment).
//
// Expected values come from tests/mcp/abap/zcl_mcp_demo.clas.abap: 300 rows (row i: ID i,
// AMOUNT i * 1.25, CUSTOMER `C{ i MOD 7 }`, NOTE `item i`), LV_LONG of more than 512
// characters, a breakpoint line 47 (`out->write( |{ lv_count } items| )`), line 48 adds one to
// LV_COUNT, line 49 calls OUTER -> MIDDLE -> INNER (300 + 10 + 1), line 50 prints `done`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { BIN, connect, systemEnv, assertNothingLeft } from './lib.mjs';

const CLASS = 'ZCL_MCP_DEMO';
const TOOLS = [
  'abap_status', 'abap_breakpoints', 'abap_run', 'abap_wait', 'abap_step', 'abap_stack',
  'abap_variables', 'abap_table', 'abap_set_variable', 'abap_source', 'abap_end', 'abap_dumps',
];

function variable(view, name) {
  const v = view.variables.find((x) => x.name === name);
  assert.ok(v, `${name} in ${JSON.stringify(view.variables.map((x) => x.name))}`);
  return v;
}

test('tools/list: every tool with an object inputSchema and an object outputSchema that admits an error', async () => {
  const mcp = await connect();
  try {
    assert.deepEqual([...mcp.tools.keys()].sort(), [...TOOLS].sort());
    for (const [name, tool] of mcp.tools) {
      assert.ok(tool.description && tool.description.length > 40, name);
      assert.equal(tool.inputSchema.type, 'object', name);
      assert.equal(tool.outputSchema.type, 'object', name);
      assert.equal(tool.outputSchema.required, undefined, `${name}: an error result must be valid`);
      assert.deepEqual(tool.outputSchema.properties.error.required, ['code', 'message'], name);
    }
    for (const name of ['abap_run', 'abap_wait', 'abap_step']) {
      const props = mcp.tools.get(name).outputSchema.properties;
      assert.ok(props.stop && props.end && props.waiting && props.state && props.elapsed_seconds, name);
      assert.ok(mcp.tools.get(name).inputSchema.properties.wait_seconds.maximum === 600, name);
    }
    assert.match(mcp.tools.get('abap_table').description, /EQ, NE, LT, GT, LE, GE/);
    assert.deepEqual(mcp.tools.get('abap_step').inputSchema.properties.kind.enum,
      ['into', 'over', 'out', 'continue', 'to_line', 'jump_to_line']);
    // An unknown argument is a tool error with the protocol's code (nothing started).
    const e = await mcp.fails('abap_status', { nope: 1 });
    assert.equal(e.code, 'protocol.invalid_args');
    const resources = await mcp.client.listResources();
    assert.deepEqual(resources.resources.map((r) => r.uri), ['abapdbg://session/stop']);
    const templates = await mcp.client.listResourceTemplates();
    assert.deepEqual(templates.resourceTemplates.map((r) => r.uriTemplate), ['abapdbg://source/{object}']);
  } finally {
    await mcp.ok('abap_end', { how: 'shutdown' }).catch(() => {});
    await mcp.close();
  }
});

test('a whole session: breakpoints, run to the stop, variables, table pages and where, step, set, continue to the end, shutdown', async () => {
  const mcp = await connect(systemEnv({ ABAPDBG_ALLOW_WRITES: 'true' }));
  const updates = [];
  mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
  try {
    const idle = await mcp.ok('abap_status');
    assert.equal(idle.state, 'idle');
    assert.equal(idle.allow_writes, true);
    assert.equal(idle.stop, null);
    assert.equal(idle.settings, null, 'no debugger settings were set');
    await mcp.client.subscribeResource({ uri: 'abapdbg://session/stop' });

    // One verified, one rejected with the system's reason.
    const bps = await mcp.ok('abap_breakpoints', { set: [{ location: `${CLASS}:47` }, { location: `${CLASS}:34` }] });
    assert.equal(bps.breakpoints.length, 2, JSON.stringify(bps));
    const [good, bad] = bps.breakpoints;
    assert.equal(good.verified, true, JSON.stringify(good));
    assert.equal(good.status, 'verified');
    assert.equal(good.file, 'zcl_mcp_demo.clas.abap');
    assert.equal(bad.verified, false, JSON.stringify(bad));
    assert.equal(bad.status, 'rejected');
    assert.match(bad.reason, /breakpoint/i);
    // A location that cannot be read is an error with the protocol's code and a hint.
    const unreadable = await mcp.fails('abap_breakpoints', { set: [{ location: 'ZCL_MCP_DEMO:x' }] });
    assert.equal(unreadable.code, 'breakpoint.invalid_location');

    // Run to the stop: the whole view in one answer.
    const run = await mcp.ok('abap_run', { class: CLASS, wait_seconds: 60 });
    assert.ok(run.stop, JSON.stringify(run));
    const stop = run.stop;
    assert.deepEqual(stop.reason, { kind: 'breakpoint', breakpoint_id: good.id });
    assert.equal(stop.location.object, CLASS);
    assert.equal(stop.location.method, 'IF_OO_ADT_CLASSRUN~MAIN');
    assert.equal(stop.location.file, 'zcl_mcp_demo.clas.abap');
    assert.equal(stop.location.line, 47);
    assert.equal(stop.depth, 1);
    const current = stop.source.filter((l) => l.current);
    assert.equal(current.length, 1);
    assert.equal(current[0].line, 47);
    assert.match(current[0].text, /items/);
    assert.equal(variable(stop, 'LV_COUNT').value, '300');
    assert.equal(variable(stop, 'LV_COUNT').changed, false);
    assert.equal(variable(stop, 'LT_ITEMS').children, 300);
    // A long value, cut at 512 characters with its whole length.
    const long = variable(stop, 'LV_LONG');
    assert.equal(long.truncated, true, JSON.stringify(long));
    assert.equal([...long.value].length, 512);
    assert.ok(long.full_length > 1000, JSON.stringify(long));
    assert.ok(long.value.startsWith('line 1 of a long text.'), long.value.slice(0, 40));
    const short = await mcp.ok('abap_variables', { max_chars: 10 });
    const locals = short.scopes.find((s) => s.name === 'Locals');
    assert.ok(locals, JSON.stringify(short.scopes.map((s) => s.name)));
    assert.equal(locals.variables.find((v) => v.name === 'LV_LONG').value, 'line 1 of ');
    // The stop resource was updated and holds the same stop.
    for (let i = 0; i < 100 && updates.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(updates.includes('abapdbg://session/stop'), JSON.stringify(updates));
    const resource = await mcp.client.readResource({ uri: 'abapdbg://session/stop' });
    assert.equal(JSON.parse(resource.contents[0].text).stop.location.line, 47);
    const source = await mcp.client.readResource({ uri: 'abapdbg://source/zcl_mcp_demo.clas.abap' });
    assert.match(source.contents[0].text, /METHOD inner\./);

    const stack = await mcp.ok('abap_stack');
    assert.equal(stack.frames.length, 1);
    assert.equal(stack.frames[0].file, 'zcl_mcp_demo.clas.abap');
    assert.equal(stack.frames[0].line, 47);
    const window = await mcp.ok('abap_source', { object: CLASS, line: 63, around: 1 });
    assert.deepEqual(window.lines.map((l) => l.line), [62, 63, 64]);
    assert.match(window.lines[1].text, /lv_here = iv_depth \* 100/);
    const here = await mcp.ok('abap_source', { around: 0 });
    assert.deepEqual(here.lines.map((l) => [l.line, l.current]), [[47, true]]);

    // Variables: the scopes, then a table's rows as variables, paged.
    const vars = await mcp.ok('abap_variables');
    assert.equal(vars.frame, 0);
    assert.ok(vars.scopes.some((s) => s.variables.some((v) => v.name === 'LV_COUNT')));
    const rows = await mcp.ok('abap_variables', { path: 'LT_ITEMS', offset: 0, limit: 2 });
    assert.deepEqual(rows.variables.map((v) => v.name), ['[1]', '[2]']);
    assert.equal(rows.total, 300);
    assert.equal(rows.next_offset, 2);

    // A table page.
    const page = await mcp.ok('abap_table', { path: 'LT_ITEMS', offset: 100, limit: 3 });
    assert.equal(page.total, 300);
    assert.deepEqual(page.rows.map((r) => r.index), [101, 102, 103]);
    assert.equal(page.rows[0].values.NOTE, 'item 101');
    assert.equal(page.rows[0].values.AMOUNT, '126.25');
    assert.equal(page.next_offset, 103);
    const narrow = await mcp.ok('abap_table', { path: 'LT_ITEMS', limit: 1, columns: ['id', 'NOTE'] });
    assert.deepEqual(Object.keys(narrow.rows[0].values).sort(), ['ID', 'NOTE']);
    const last = await mcp.ok('abap_table', { path: 'LT_ITEMS', offset: 299 });
    assert.equal(last.next_offset, null);

    // where over the 300 rows: all of them, a first few, a bounded scan.
    const want = [];
    for (let i = 1; i <= 300; i++) if (i % 7 === 3 && i * 1.25 > 100) want.push(i);
    const all = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: "CUSTOMER = 'C3' AND AMOUNT > 100", limit: 1000 });
    assert.deepEqual(all.rows.map((r) => r.index), want);
    assert.equal(all.matched, want.length);
    assert.equal(all.scanned, 300);
    assert.equal(all.next_offset, null);
    const few = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: "customer EQ 'C3' and amount GT 100", limit: 5 });
    assert.deepEqual(few.rows.map((r) => r.index), want.slice(0, 5));
    assert.equal(few.matched, 5);
    assert.equal(few.scanned, want[4]);
    assert.equal(few.next_offset, want[4]);
    const more = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: "CUSTOMER = 'C3' AND AMOUNT > 100", offset: few.next_offset, limit: 2 });
    assert.deepEqual(more.rows.map((r) => r.index), want.slice(5, 7));
    const bounded = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: 'ID > 290', max_scan: 50 });
    assert.deepEqual([bounded.matched, bounded.scanned, bounded.next_offset], [0, 50, 50]);
    const tail = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: 'ID > 290', offset: 260, max_scan: 50 });
    assert.deepEqual([tail.matched, tail.scanned, tail.next_offset], [10, 40, null]);
    const either = await mcp.ok('abap_table', { path: 'LT_ITEMS', where: "NOT ( id < 299 ) OR note = 'item 1'" });
    assert.deepEqual(either.rows.map((r) => r.index), [1, 299, 300]);
    const wrong = await mcp.fails('abap_table', { path: 'LT_ITEMS', where: 'PRICE > 3' });
    assert.equal(wrong.code, 'protocol.invalid_args');
    assert.match(wrong.message, /PRICE/);
    assert.ok(wrong.hint);

    // A step, a write (allowed here), another step: LV_COUNT marked changed.
    const over = await mcp.ok('abap_step', { kind: 'over' });
    assert.equal(over.stop.reason.kind, 'step');
    assert.equal(over.stop.location.line, 48);
    const set = await mcp.ok('abap_set_variable', { path: 'LV_COUNT', value: '5' });
    assert.equal(set.value, '5');
    const next = await mcp.ok('abap_step', { kind: 'over' });
    assert.equal(next.stop.location.line, 49);
    assert.equal(variable(next.stop, 'LV_COUNT').value, '6');
    assert.equal(variable(next.stop, 'LV_COUNT').changed, true);
    assert.equal(variable(next.stop, 'LT_ITEMS').changed, false);

    // Continue to the end: the output shows the value we set.
    const end = await mcp.ok('abap_step', { kind: 'continue' });
    assert.ok(end.end, JSON.stringify(end));
    assert.equal(end.end.reason, 'finished');
    assert.equal(end.end.output.trim(), '300 items\ntotal 311\ndone 6');
    const after = await mcp.ok('abap_status');
    assert.equal(after.stop, null);
    assert.equal(after.last_end.reason, 'finished');
    const nothing = await mcp.ok('abap_end', { how: 'terminate' });
    assert.equal(nothing.done, false);

    const released = await mcp.ok('abap_end', { how: 'shutdown' });
    assert.equal(released.done, true);
    assert.equal(released.receipt.breakpoints_deleted >= 1, true, JSON.stringify(released));
    await assertNothingLeft();
  } finally {
    await mcp.close();
  }
});

test('writes are refused unless allowed for the system; detach lets the program run on', async () => {
  const mcp = await connect();
  try {
    await mcp.ok('abap_breakpoints', { set: [{ location: `${CLASS}:47` }] });
    const run = await mcp.ok('abap_run', { class: CLASS });
    assert.equal(run.stop.location.line, 47);
    const refused = await mcp.fails('abap_set_variable', { path: 'LV_COUNT', value: '5' });
    assert.equal(refused.code, 'permission.write_not_allowed');
    assert.ok(refused.hint, JSON.stringify(refused));
    const status = await mcp.ok('abap_status');
    assert.equal(status.allow_writes, false);
    assert.equal(status.stop.location.line, 47);
    const detached = await mcp.ok('abap_end', { how: 'detach' });
    assert.equal(detached.done, true, JSON.stringify(detached));
    assert.equal(detached.ended.reason, 'detached');
    const again = await mcp.ok('abap_end', { how: 'detach' });
    assert.equal(again.done, false);
    const released = await mcp.ok('abap_end', { how: 'shutdown' });
    assert.equal(released.done, true);
    await assertNothingLeft();
  } finally {
    await mcp.close();
  }
});

test('waits are bounded, report progress, and a cancelled wait leaves the session listening', async () => {
  const mcp = await connect();
  try {
    // Nothing runs: the wait answers `waiting` after its wait_seconds, not later.
    let t0 = Date.now();
    const quiet = await mcp.ok('abap_wait', { wait_seconds: 1 });
    const took = Date.now() - t0;
    assert.deepEqual([quiet.waiting, quiet.state], [true, 'listening'], JSON.stringify(quiet));
    assert.ok(quiet.elapsed_seconds >= 1 && quiet.elapsed_seconds < 3, JSON.stringify(quiet));
    assert.ok(took < 4000, `took ${took} ms`);

    // A long wait: progress arrives every few seconds; cancelling ends it at once.
    const progress = [];
    const abort = new AbortController();
    let firstProgress;
    const gotProgress = new Promise((resolve) => { firstProgress = resolve; });
    const waiting = mcp.call('abap_wait', { wait_seconds: 120 }, {
      signal: abort.signal,
      onprogress: (p) => { progress.push(p); firstProgress(); },
    });
    await gotProgress;
    assert.match(progress[0].message, /listener armed for DEVELOPER/);
    assert.equal(progress[0].total, 120);
    t0 = Date.now();
    abort.abort();
    await assert.rejects(waiting);
    assert.ok(Date.now() - t0 < 1000);
    const status = await mcp.ok('abap_status');
    assert.equal(status.state, 'listening', JSON.stringify(status));
    assert.equal(status.listener.wanted, true);
    assert.equal(status.stop, null);

    // Still listening: a run with no breakpoint ends at once with its output; unit tests
    // answer their results per method.
    const ran = await mcp.ok('abap_run', { class: CLASS, wait_seconds: 30 });
    assert.equal(ran.end.reason, 'finished', JSON.stringify(ran));
    assert.match(ran.end.output, /total 311/);
    const tested = await mcp.ok('abap_run', { test: { class: 'ZCL_SMP_CALCULATOR' } });
    assert.ok(tested.end.unit.methods.length > 0, JSON.stringify(tested));
    assert.equal(tested.end.unit.failed, 0);
    assert.ok(tested.end.unit.methods.every((m) => m.passed && m.class && m.method));
    const bad = await mcp.fails('abap_run', { class: CLASS, listen: true });
    assert.equal(bad.code, 'protocol.invalid_args');
    const over = await mcp.fails('abap_wait', { wait_seconds: -1 });
    assert.equal(over.code, 'protocol.invalid_args');

    const released = await mcp.ok('abap_end', { how: 'shutdown' });
    assert.equal(released.receipt.listener_stopped, true);
    await assertNothingLeft();
  } finally {
    await mcp.close();
  }
});

test('an exception breakpoint stops at the CATCH with the class; a runtime error ends the run with its name', async () => {
  const mcp = await connect();
  try {
    const bps = await mcp.ok('abap_breakpoints', { set: [{ exception: 'CX_SY_ZERODIVIDE' }] });
    assert.equal(bps.breakpoints[0].kind, 'exception');
    assert.equal(bps.breakpoints[0].verified, true);
    const run = await mcp.ok('abap_run', { class: 'ZCL_SMP_ZERO_DIVIDE' });
    assert.deepEqual(run.stop.reason, {
      kind: 'exception', breakpoint_id: bps.breakpoints[0].id, exception: { class: 'CX_SY_ZERODIVIDE', text: null },
    });
    assert.match(run.stop.source.find((l) => l.current).text, /CATCH cx_sy_zerodivide/);
    const end = await mcp.ok('abap_step', { kind: 'continue' });
    assert.match(end.end.output, /Division by zero/);
    const deleted = await mcp.ok('abap_breakpoints', { all: true });
    assert.deepEqual([deleted.breakpoints, deleted.deleted], [[], [bps.breakpoints[0].id]]);

    const dump = await mcp.ok('abap_run', { class: 'ZCL_MCP_DUMP' });
    assert.equal(dump.end.reason, 'runtime_error', JSON.stringify(dump));
    assert.equal(dump.end.runtime_error, 'COMPUTE_INT_ZERODIVIDE');
    await mcp.ok('abap_end', { how: 'shutdown' });
    await assertNothingLeft();
  } finally {
    await mcp.close();
  }
});

test('short dumps: listed with filters, read whole, caught through abap_breakpoints, the next run stops before it dies', async () => {
  const mcp = await connect();
  const DUMPING = 'ZCL_SMP_DUMP_ZERODIV';
  try {
    const died = await mcp.ok('abap_run', { class: DUMPING });
    assert.equal(died.end.reason, 'runtime_error', JSON.stringify(died));

    const listed = await mcp.ok('abap_dumps', { program: DUMPING, since: '1h', error: 'COMPUTE_INT_ZERODIVIDE' });
    assert.equal(listed.dumps.length, 1, JSON.stringify(listed));
    const d = listed.dumps[0];
    assert.equal(d.user, 'DEVELOPER');
    assert.equal(d.runtime_error, 'COMPUTE_INT_ZERODIVIDE');
    assert.equal(d.exception, 'CX_SY_ZERODIVIDE');
    assert.equal(d.file, 'zcl_smp_dump_zerodiv.clas.abap');
    assert.equal(d.line, 31);
    assert.match(d.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Filters that leave it out.
    assert.deepEqual((await mcp.ok('abap_dumps', { program: DUMPING, error: 'STRING_SIZE_TOO_LARGE' })).dumps, []);
    assert.deepEqual((await mcp.ok('abap_dumps', { program: DUMPING, user: 'NOBODY' })).dumps, []);

    // One dump whole: chapters, the stack with files, the variables that made it fail, the source.
    const whole = await mcp.ok('abap_dumps', { id: d.id });
    assert.equal(whole.id, d.id);
    assert.equal(whole.line, 31);
    assert.ok(whole.chapters.length > 3, JSON.stringify(whole.chapters));
    assert.ok(whole.chapters.every((c) => c.title && typeof c.text === 'string'));
    assert.deepEqual(whole.stack.map((f) => [f.method, f.file, f.line]), [
      ['SHARE', 'zcl_smp_dump_zerodiv.clas.abap', 31],
      ['IF_OO_ADT_CLASSRUN~MAIN', 'zcl_smp_dump_zerodiv.clas.abap', 25],
    ]);
    const parts = whole.variables.find((v) => v.name === 'IV_PARTS');
    assert.equal(parts?.value, '0', JSON.stringify(whole.variables));
    const current = whole.source.filter((l) => l.current);
    assert.deepEqual(current.map((l) => l.line), [31]);
    assert.match(current[0].text, /rv_share = lv_rest \/ iv_parts/);
    // id with the list's filters, and an unknown id, are errors with the protocol's codes.
    assert.equal((await mcp.fails('abap_dumps', { id: d.id, limit: 3 })).code, 'protocol.invalid_args');
    assert.equal((await mcp.fails('abap_dumps', { id: 'NO_SUCH_DUMP' })).code, 'dump.not_found');

    // Caught: a line breakpoint at the failing statement and one for its exception class.
    const caught = await mcp.ok('abap_breakpoints', { catch: { dump: d.id } });
    assert.equal(caught.caught.dump, d.id);
    assert.equal(caught.caught.user, 'DEVELOPER');
    assert.equal(caught.caught.armed, true);
    assert.equal(caught.caught.breakpoints.length, 2, JSON.stringify(caught));
    const set = caught.breakpoints.filter((b) => caught.caught.breakpoints.includes(b.id));
    assert.deepEqual(set.map((b) => b.kind).sort(), ['exception', 'line']);
    assert.ok(set.every((b) => b.verified), JSON.stringify(set));

    const again = await mcp.ok('abap_run', { class: DUMPING });
    assert.ok(again.stop, JSON.stringify(again));
    assert.equal(again.stop.location.method, 'SHARE');
    assert.equal(again.stop.location.line, 31);
    assert.equal(variable(again.stop, 'IV_PARTS').value, '0');
    assert.equal(variable(again.stop, 'LV_REST').value, '100');

    // Settings made by another client of the session show in abap_status.
    const setting = spawnSync(BIN, ['settings', '--system-debugging', 'on', '--json'], { env: systemEnv(), encoding: 'utf8' });
    assert.equal(setting.status, 0, setting.stderr);
    const status = await mcp.ok('abap_status');
    assert.equal(status.settings.system_debugging, true, JSON.stringify(status.settings));
    assert.equal(status.settings.create_exception_object, false);

    await mcp.ok('abap_end', { how: 'shutdown' });
    await assertNothingLeft();
  } finally {
    await mcp.close();
  }
});
