// A listener conflict through the MCP tools: abap_wait fails at once with conflict.listener and
// a hint naming the tool and argument an agent calls next (not the protocol's JSON), and that
// call takes the listener over. Run by tests/mcp.rs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM, connect, assertNothingLeft } from './lib.mjs';

async function faults(body) {
  const r = await fetch(`${SIM}/sim/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(r.status, 200, await r.text());
}

test('a listener conflict hints abap_wait with take_over', async () => {
  // Another debugger of the same user listens on the system.
  await faults({ foreignListeners: ['DEVELOPER'] });
  const mcp = await connect();
  try {
    const e = await mcp.fails('abap_wait', { wait_seconds: 60 });
    assert.equal(e.code, 'conflict.listener', JSON.stringify(e));
    assert.match(e.hint, /abap_wait and take_over: true/);
    assert.doesNotMatch(e.hint, /[{}]|'listen'/);

    const taken = await mcp.ok('abap_wait', { take_over: true, wait_seconds: 1 });
    assert.equal(taken.waiting, true, JSON.stringify(taken));
    assert.equal(taken.state, 'listening', JSON.stringify(taken));
    // Armed once the system holds our listener (bounded: the next poll of the session).
    let status;
    for (let i = 0; i < 300; i++) {
      status = await mcp.ok('abap_status');
      if (status.listener.armed) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status.listener.armed, true, JSON.stringify(status));
  } finally {
    await faults({});
    await mcp.ok('abap_end', { how: 'shutdown' }).catch(() => {});
    await mcp.close();
  }
  await assertNothingLeft();
});
