// A person at the REPL (`abapdbg repl` in a private tmux server) and an agent (the official MCP
// TypeScript SDK client on `abapdbg mcp`) on the same stop of ZCL_MCP_DEMO three calls deep
// (MAIN -> OUTER -> MIDDLE -> INNER, stopped in INNER at line 63): the person selects frame 2
// (OUTER, IV_DEPTH 1), the agent reads frame 1 (MIDDLE, IV_DEPTH 2) and frame 0 (INNER,
// IV_DEPTH 3) by naming them, and the person's view stays on OUTER. Run by tests/mcp.rs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BIN, connect, systemEnv, assertNothingLeft } from './lib.mjs';

const CLASS = 'ZCL_MCP_DEMO';
const SETTLE = 40_000;
const env = systemEnv();
const socket = path.join(process.env.MCP_TEST_DIR, 'tmux.sock');

function tmux(...args) {
  const r = spawnSync('tmux', ['-S', socket, ...args], { env, encoding: 'utf8' });
  assert.equal(r.status, 0, `tmux ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const screen = () => tmux('capture-pane', '-t', 'repl', '-p', '-J', '-S', '-');

async function waitFor(what, pred) {
  const deadline = Date.now() + SETTLE;
  for (;;) {
    const s = screen();
    if (pred(s)) return s;
    if (Date.now() > deadline) assert.fail(`waited in vain for ${what}; the screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Types a line and waits for the prompt after it; what the line printed. */
async function type(line, prompt) {
  const before = screen().trimEnd().length;
  tmux('send-keys', '-t', 'repl', '-l', line);
  tmux('send-keys', '-t', 'repl', 'Enter');
  const s = await waitFor(`'${line}' and the prompt after it`, (s) => {
    const fresh = s.slice(before);
    const nl = fresh.indexOf('\n');
    return nl >= 0 && fresh.slice(nl).includes(prompt);
  });
  const fresh = s.slice(before);
  const out = fresh.slice(fresh.indexOf('\n'));
  return out.slice(0, out.lastIndexOf(prompt));
}

function depthShown(vars) {
  const line = vars.split('\n').find((l) => l.includes('IV_DEPTH'));
  assert.ok(line, vars);
  return line.trim().split(/\s+/).at(-1);
}

test('a REPL and the MCP client on one stop, each looking at its own frame', async () => {
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'repl', '-x', '160', '-y', '50',
    '--', 'sh', '-c', `'${BIN}' repl; echo "[exit $?]"; sleep 600`);
  const mcp = await connect(env);
  try {
    await waitFor('the REPL listening', (s) => s.includes('listener armed'));
    const bps = await mcp.ok('abap_breakpoints', { set: [{ location: `${CLASS}:63` }] });
    assert.equal(bps.breakpoints[0].verified, true, JSON.stringify(bps));
    const run = await mcp.ok('abap_run', { class: CLASS });
    assert.equal(run.stop.location.method, 'INNER', JSON.stringify(run.stop.location));
    assert.equal(run.stop.location.line, 63);
    assert.equal(run.stop.depth, 4);
    const prompt = `${CLASS}:63>`;
    await waitFor('the REPL at the stop', (s) => s.includes(prompt));

    // The person looks at OUTER.
    await type('f 2', '>');
    assert.equal(depthShown(await type('v', '>')), '1');

    // The agent looks at MIDDLE and at INNER, naming each frame.
    const stack = await mcp.ok('abap_stack');
    assert.deepEqual(stack.frames.map((f) => f.method), ['INNER', 'MIDDLE', 'OUTER', 'IF_OO_ADT_CLASSRUN~MAIN']);
    const middle = await mcp.ok('abap_variables', { frame: 1 });
    const depth = (r) => r.scopes.flatMap((s) => s.variables).find((v) => v.name === 'IV_DEPTH')?.value;
    assert.equal(depth(middle), '2', JSON.stringify(middle));
    const inner = await mcp.ok('abap_variables', { frame: 0 });
    assert.equal(depth(inner), '3', JSON.stringify(inner));
    const src = await mcp.ok('abap_source', { frame: 1, around: 0 });
    assert.match(src.lines[0].text, /inner\( iv_depth \+ 1 \)/);

    // The person's view did not move.
    assert.equal(depthShown(await type('v', '>')), '1');

    // The agent continues; the program ends with its output; the person quits.
    const end = await mcp.ok('abap_step', { kind: 'continue' });
    assert.equal(end.end.reason, 'finished', JSON.stringify(end));
    assert.match(end.end.output, /total 311/);
    tmux('send-keys', '-t', 'repl', '-l', 'q');
    tmux('send-keys', '-t', 'repl', 'Enter');
    await waitFor('the REPL to end', (s) => s.includes('[exit 0]'));
    const released = await mcp.ok('abap_end', { how: 'shutdown' });
    assert.equal(released.done, true);
    await assertNothingLeft();
  } finally {
    await mcp.close();
    spawnSync('tmux', ['-S', socket, 'kill-server'], { env });
  }
});
