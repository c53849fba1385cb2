// Shared by the MCP tests: start `abapdbg mcp` under the official MCP TypeScript SDK client
// (stdio), call tools with every structuredContent validated against the tool's outputSchema.
//
// Environment (set by tests/mcp.rs): ABAPDBG_BIN, MCP_SIM_URL, and private ABAPDBG_RUNTIME_DIR,
// ABAPDBG_STATE_DIR, HOME.

import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';

export const BIN = process.env.ABAPDBG_BIN;
export const SIM = process.env.MCP_SIM_URL;

/** The system every server of these tests debugs: the simulator process. */
export function systemEnv(extra = {}) {
  return {
    ...process.env,
    ABAPDBG_URL: SIM,
    ABAPDBG_USER: 'DEVELOPER',
    ABAPDBG_CLIENT: '001',
    ABAPDBG_PASSWORD: 'abap',
    ...extra,
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });

/** An MCP client connected to a fresh `abapdbg mcp`; `tools` maps names to definitions. */
export async function connect(env = systemEnv()) {
  const transport = new StdioClientTransport({ command: BIN, args: ['mcp'], env, stderr: 'inherit' });
  const client = new Client({ name: 'abapdbg-mcp-tests', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const listed = await client.listTools();
  const tools = new Map(listed.tools.map((t) => [t.name, t]));
  const validators = new Map(listed.tools.map((t) => [t.name, ajv.compile(t.outputSchema)]));
  const inputs = new Map(listed.tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));
  /** Calls a tool; its structuredContent must be valid against its outputSchema, and it has
   *  exactly one text. Failures must be isError with {error: {code, message, hint}}. */
  async function call(name, args = {}, options = {}) {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...options });
    const validate = validators.get(name);
    assert.ok(validate, `no tool ${name}`);
    assert.ok(result.structuredContent, `${name}: no structuredContent: ${JSON.stringify(result)}`);
    assert.ok(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(result.structuredContent)}`);
    assert.equal(result.content.length, 1, JSON.stringify(result.content));
    assert.equal(result.content[0].type, 'text');
    if (result.isError) {
      const e = result.structuredContent.error;
      assert.ok(e && typeof e.code === 'string' && typeof e.message === 'string', JSON.stringify(result));
      assert.ok(result.content[0].text.startsWith(`${e.code}: `), result.content[0].text);
    } else {
      assert.equal(result.structuredContent.error, undefined);
    }
    return result;
  }
  /** A call that must succeed (its arguments valid against the tool's inputSchema): its
   *  structuredContent. */
  async function ok(name, args = {}, options = {}) {
    const input = inputs.get(name);
    assert.ok(input(args), `${name} ${JSON.stringify(args)}: ${JSON.stringify(input.errors)}`);
    const r = await call(name, args, options);
    assert.notEqual(r.isError, true, `${name} ${JSON.stringify(args)} failed: ${r.content[0].text}`);
    return r.structuredContent;
  }
  /** A call that must fail: its error. */
  async function fails(name, args = {}) {
    const r = await call(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent.error;
  }
  return { client, tools, call, ok, fails, close: () => client.close() };
}

/** The simulator holds nothing of DEVELOPER's: no listener, breakpoint or stopped program. */
export async function assertNothingLeft() {
  let state;
  for (let i = 0; i < 300; i++) {
    state = await (await fetch(`${SIM}/sim/state`)).json();
    const listeners = (state.listeners ?? []).filter((l) => JSON.stringify(l).includes('DEVELOPER'));
    const bps = state.breakpoints?.DEVELOPER ?? [];
    const debuggees = (state.debuggees ?? []).filter((d) => d.user === 'DEVELOPER');
    if (listeners.length === 0 && bps.length === 0 && debuggees.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the simulator still holds something of ours: ${JSON.stringify(state)}`);
}
