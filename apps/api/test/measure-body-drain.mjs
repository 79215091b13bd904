#!/usr/bin/env node
/**
 * Measures how much of an unwanted request body the server reads, and whether it closes the connection
 * (hardening item 2). Run after `pnpm --filter ./apps/api build`:
 *
 *   node apps/api/test/measure-body-drain.mjs [seconds=3] [--load] [--dist <dir with index.js>]
 *
 * The server (the built app on data/packs, an echo MCP handler) runs in a child process. For each case a raw
 * socket sends the request head and then streams a body as fast as it can for `seconds`, or until the server
 * closes the socket. Reported per case: the status line of the answer, the bytes the server read from the
 * connection (its sockets' `bytesRead`, head included), the read rate, and whether and when the server
 * closed the connection. With `--load`, cached GET throughput (autocannon, 10 connections, 5 s) is measured
 * alone and then beside four clients in another process streaming a body (after a 413 on /api/mcp; on a
 * GET): first on one connection each, then reconnecting whenever the server closes the connection. Client and server share the machine's cores: compare
 * runs with each other, not with a dedicated benchmark.
 */

import { fork } from "node:child_process";
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const distAt = argv.indexOf("--dist");
const dist = resolve(distAt >= 0 ? argv[distAt + 1] : join(here, "../dist"));

const RAW = Buffer.alloc(64 * 1024, "x");
/** The same bytes framed as one chunk of a chunked body. */
const FRAMED = Buffer.concat([Buffer.from("10000\r\n"), RAW, Buffer.from("\r\n")]);

/** Sends `head`, then streams the body (chunk-framed when `chunked`) for at most `ms`. */
function stream(port, head, chunked, ms) {
  const chunk = chunked ? FRAMED : RAW;
  return new Promise((done) => {
    const sock = connect(port, "127.0.0.1");
    let response = "";
    let closedAt = null;
    let stop = false;
    const t0 = performance.now();
    const pump = () => {
      while (!stop && !sock.destroyed && sock.write(chunk));
    };
    sock.on("connect", () => {
      sock.write(head);
      pump();
    });
    sock.on("drain", pump);
    sock.on("data", (d) => {
      if (response.length < 200) response += d.toString("latin1");
    });
    const closed = () => {
      if (closedAt === null) closedAt = performance.now() - t0;
    };
    sock.on("end", closed);
    sock.on("error", closed);
    const timer = setTimeout(finish, ms);
    sock.on("close", () => {
      closed();
      clearTimeout(timer);
      finish();
    });
    let finished = false;
    function finish() {
      if (finished) return;
      finished = true;
      stop = true;
      sock.destroy();
      done({ status: response.split("\r\n")[0] || "(no answer)", closedAfterMs: closedAt });
    }
  });
}

const CASES = [
  [
    "POST /api/mcp, chunked body past 1 MB (413)",
    "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    true,
  ],
  [
    "POST /api/mcp, Content-Length 10 GB (413 up front)",
    "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n",
    false,
  ],
  ["GET / with a 10 GB body", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n", false],
  [
    "GET /api/v1/ranges/games with a chunked body",
    "GET /api/v1/ranges/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    true,
  ],
  [
    "HEAD /api/v1/ranges/games with a 10 GB body",
    "HEAD /api/v1/ranges/games HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n",
    false,
  ],
  [
    "PUT /nope (unknown route) with a 10 GB body",
    "PUT /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n",
    false,
  ],
];

if (argv[0] === "--serve") {
  // The server process.
  const { AccessStore } = await import("@ranges/access");
  const { RangeStore } = await import("@ranges/store");
  const { createApp } = await import(pathToFileURL(join(dist, "index.js")).href);
  const store = RangeStore.open({ packsDir: join(here, "../../../data/packs") });
  const access = await AccessStore.open(":memory:", { keylessDailyLimit: 1e9 });
  const app = createApp({
    store,
    access,
    logger: () => {},
    mcpHandler: async (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    },
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const live = new Set();
  let closedBytes = 0;
  server.on("connection", (s) => {
    live.add(s);
    s.on("close", () => {
      live.delete(s);
      closedBytes += s.bytesRead;
    });
  });
  process.on("message", (m) => {
    if (m === "bytes") process.send({ bytes: closedBytes + [...live].reduce((n, s) => n + s.bytesRead, 0) });
    if (m === "exit") process.exit(0);
  });
  process.send({ port: server.address().port });
} else if (argv[0] === "--hostile") {
  // Four clients streaming one case's body; with `reconnect`, each opens a new connection whenever the
  // server closes its own.
  const [, port, which, ms, reconnect] = argv.map(Number);
  const [, head, chunked] = CASES[which];
  let stop = false;
  let connections = 0;
  setTimeout(() => (stop = true), ms);
  const worker = async () => {
    while (!stop) {
      await stream(port, head, chunked, ms);
      connections++;
      if (!reconnect) break;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  process.send({ connections });
} else {
  await main();
}

async function main() {
  const seconds = Number(argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 3);
  const load = argv.includes("--load");
  const child = fork(fileURLToPath(import.meta.url), ["--serve", "--dist", dist], { stdio: "inherit" });
  const replies = [];
  child.on("message", (m) => replies.shift()?.(m));
  const ask = (m) =>
    new Promise((r) => {
      replies.push(r);
      if (m) child.send(m);
    });
  const { port } = await ask(null);
  const serverBytes = async () => (await ask("bytes")).bytes;

  console.log(`Streaming a body for up to ${seconds} s per case (node ${process.version}, ${dist}).`);
  for (const [name, head, chunked] of CASES) {
    const before = await serverBytes();
    const r = await stream(port, head, chunked, seconds * 1000);
    await new Promise((w) => setTimeout(w, 50));
    const read = (await serverBytes()) - before;
    const elapsed = (r.closedAfterMs ?? seconds * 1000) / 1000;
    console.log(
      `${name}\n  answer: ${r.status}\n  server read ${(read / 1e6).toFixed(1)} MB (${(read / 1e6 / elapsed).toFixed(0)} MB/s); ` +
        (r.closedAfterMs === null
          ? `socket still open after ${seconds} s`
          : `socket closed by the server after ${Math.round(r.closedAfterMs)} ms`),
    );
  }

  if (load) {
    const { default: autocannon } = await import("autocannon");
    const url = `http://127.0.0.1:${port}/api/v1/ranges/nl/node?stack=100&history=UTG`;
    const bench = () =>
      new Promise((res, rej) =>
        autocannon({ url, connections: 10, duration: 5 }, (err, out) => (err ? rej(err) : res(out))),
      );
    await bench(); // warm-up
    for (const [which, reconnect] of [
      [0, 0],
      [2, 0],
      [0, 1],
      [2, 1],
    ]) {
      const alone = await bench();
      const before = await serverBytes();
      const hostile = fork(fileURLToPath(import.meta.url), [
        "--hostile",
        String(port),
        String(which),
        "5500",
        String(reconnect),
      ]);
      const done = new Promise((r) => hostile.once("message", r));
      const busy = await bench();
      const { connections } = await done;
      const read = (await serverBytes()) - before;
      console.log(
        `cached GET throughput (autocannon, 10 connections, 5 s): ${alone.requests.average.toFixed(0)} req/s alone, ` +
          `${busy.requests.average.toFixed(0)} req/s beside 4 ${reconnect ? "reconnecting " : ""}clients (another process) streaming "${CASES[which][0]}" ` +
          `(${connections} connections; the server read ${(read / 1e6).toFixed(0)} MB in all, autocannon's included)`,
      );
    }
  }
  child.send("exit");
}
