// A whole plan through the Interpreter with registerStdTools: it reads a CSV file of the root,
// parses and validates it, posts each row to a local HTTP API (a real server on 127.0.0.1), writes
// a report, and lists the folder — the way a person runs a plan without writing tools first.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { registerStdTools } from '../../../src/std/index.js';
import type { ApprovalRequest } from '../../../src/tools/types.js';

let root: string;
let server: http.Server;
let port: number;
const posted: unknown[] = [];

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'nuwa-std-script-')));
  writeFileSync(path.join(root, 'orders.csv'), 'id,item,qty\n1,apple,3\n2,"pear, green",5\n');
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const order = JSON.parse(body) as { id: string };
      posted.push(order);
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ accepted: order.id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const PLAN = `
LET file = CALL fs.read { path: "orders.csv" }
LET orders = CALL data.parse_csv { text: file.content }
LET check = CALL data.validate { data: orders, schema: { type: "array", items: { type: "object", required: ["id", "item", "qty"] } } }
IF NOT check.valid THEN
  PRINT("bad orders")
ELSE
  LET accepted = []
  FOR order IN orders DO
    LET answer = CALL http.request { method: "POST", url: FORMAT("http://127.0.0.1:{p}/orders", { p: port }), body: order }
    LET accepted = APPEND(accepted, answer.body.accepted)
  END
  LET report = CALL fs.write { path: "out/report.txt", content: FORMAT("accepted {n} orders: {ids}", { n: LEN(accepted), ids: JOIN(accepted, ",") }) }
  PRINT(FORMAT("wrote {p} ({s} bytes)", { p: report.path, s: report.size }))
  FOR entry IN CALL fs.list { path: "out" } DO
    PRINT(FORMAT("{n} {k}", { n: entry.name, k: entry.kind }))
  END
END
`;

describe('a plan with the standard tools', () => {
  it('reads, parses, validates, posts, writes and lists, asking approval only for what writes', async () => {
    const registry = new ToolRegistry();
    registerStdTools(registry, { root, allowNet: [`127.0.0.1:${port}`] });
    const asked: ApprovalRequest[] = [];
    const printed: string[] = [];
    const interpreter = new Interpreter(registry, { print: (line) => printed.push(line), approve: (request) => (asked.push(request), true) });
    await interpreter.run(PLAN, { variables: { port } });
    expect(printed).toEqual(['wrote out/report.txt (22 bytes)', 'report.txt file']);
    expect(readFileSync(path.join(root, 'out', 'report.txt'), 'utf8')).toBe('accepted 2 orders: 1,2');
    expect(posted).toEqual([
      { id: '1', item: 'apple', qty: '3' },
      { id: '2', item: 'pear, green', qty: '5' },
    ]);
    expect(asked.map(({ toolName, confirm }) => `${toolName} ${confirm}`)).toEqual(['http.request write', 'http.request write', 'fs.write write']);
  });

  it('is planned with each call\'s risk level before anything runs', () => {
    const registry = new ToolRegistry();
    registerStdTools(registry, { root });
    const preview = new Interpreter(registry).plan(PLAN, { variables: ['port'] });
    expect(preview.ok).toBe(true);
    expect(preview.calls.map((call) => `${call.tool} ${call.confirm}`)).toEqual([
      'fs.read read',
      'data.parse_csv none',
      'data.validate none',
      'http.request write',
      'fs.write write',
      'fs.list read',
    ]);
    expect(preview.needsApproval.map((need) => need.tool)).toEqual(['http.request', 'fs.write']);
  });
});
