// `abapdbg mcp --http 127.0.0.1:0`: the official MCP TypeScript SDK client over streamable
// HTTP with the bearer token the server wrote (0600) to the file it named on stderr; a request
// without the token is refused; a non-loopback address is refused at start. Run by
// tests/mcp.rs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv';
import { BIN, systemEnv, assertNothingLeft } from './lib.mjs';

test('streamable HTTP on loopback behind a bearer token', async () => {
  const refused = spawnSync(BIN, ['mcp', '--http', '0.0.0.0:0'], { env: systemEnv(), encoding: 'utf8', timeout: 30_000 });
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /only a loopback address/);

  const server = spawn(BIN, ['mcp', '--http', '127.0.0.1:0'], { env: systemEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const started = new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => {
      stderr += d;
      const m = stderr.match(/on (http:\/\/127\.0\.0\.1:\d+\/mcp).*token in (\S+) \(0600/);
      if (m) resolve({ url: m[1], file: m[2] });
    });
    server.on('exit', (code) => reject(new Error(`mcp --http exited ${code}: ${stderr}`)));
  });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const { url, file } = await started;
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    assert.match(token, /^[0-9a-f]{64}$/);

    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(anonymous.status, 401);
    const wrong = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}x` } });
    assert.equal(wrong.status, 401);

    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'abapdbg-mcp-tests', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 12);
    const status = tools.find((t) => t.name === 'abap_status');
    const result = await client.callTool({ name: 'abap_status', arguments: {} });
    const validate = new Ajv({ strict: false }).compile(status.outputSchema);
    assert.ok(validate(result.structuredContent), JSON.stringify(validate.errors));
    assert.equal(result.structuredContent.state, 'idle');
    const end = tools.find((t) => t.name === 'abap_end');
    const released = await client.callTool({ name: 'abap_end', arguments: { how: 'shutdown' } });
    assert.ok(new Ajv({ strict: false }).compile(end.outputSchema)(released.structuredContent));
    assert.equal(released.structuredContent.done, true, JSON.stringify(released));
    await client.close();
    await assertNothingLeft();

    server.kill('SIGTERM');
    const how = await exited;
    assert.equal(how.code, 0, JSON.stringify(how) + stderr);
    assert.equal(fs.existsSync(file), false, 'the token file is removed at exit');
  } finally {
    server.kill('SIGKILL');
  }
});
