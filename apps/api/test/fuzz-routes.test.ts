/**
 * Grammar-aware fuzz of the routes that take bodies and build things (issue 27 item 4): solve requests built
 * from the request grammar (library games, every change field with values in and out of range, junk fields),
 * feature requests, and postflop reads with near-miss boards, paths and combos. No answer may be a 5xx, and
 * every refusal carries the error body. A fixed seed makes a failure reproducible; FUZZ_RUNS=<n> runs longer
 * (the default is sized for CI).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PostflopPacks } from "@ranges/postflop";
import { SolutionPacks, SolveQueue } from "@ranges/queue";
import { ErrorBodySchema } from "@ranges/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, type TestServer } from "./helpers.js";

const DATA = fileURLToPath(new URL("../../../data", import.meta.url));
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 27);

let t: TestServer;
let queue: SolveQueue;
let solutions: SolutionPacks;
let dir: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-fuzz-"));
  let q: SolveQueue | undefined;
  const lazy = {
    get queue() {
      return q!;
    },
    get solutions() {
      return solutions;
    },
  };
  t = await start({
    packsDir: `${DATA}/packs`,
    postflop: PostflopPacks.open({ dir: `${DATA}/postflop`, subgames: { threads: 1, maxIterations: 5 } }),
    solves: lazy,
  });
  queue = await SolveQueue.open(t.access.database);
  q = queue;
  solutions = new SolutionPacks(queue, dir);
  key = (await t.access.createKey({ name: "fuzz", plan: "pro" })).key;
});
afterAll(async () => {
  await solutions.close();
  await queue.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${key}` });

/** Any answer: 2xx, or a 4xx/503 with the error body; never a 500. */
async function expectSane(res: Response, what: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what} -> ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 400) ErrorBodySchema.parse(JSON.parse(text));
}

const anyValue = fc.oneof(
  fc.integer({ min: -5, max: 20 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.integer({ min: -1, max: 41_000 }), { maxLength: 8 }),
);
const codes = fc.array(fc.oneof(fc.integer({ min: 40_020, max: 40_300 }), fc.integer({ min: 20, max: 60 })), {
  maxLength: 7,
});
/** Changes as the grammar has them, often in range, sometimes not, plus junk fields. */
const changes = fc.record(
  {
    open: codes,
    threeBetIp: codes,
    fourBet: codes,
    maxRaises: fc.integer({ min: -1, max: 12 }),
    // Kept small in the CI run: a multiway tree within every limit still takes seconds to size.
    maxCallersToRaise: fc.integer({ min: -1, max: RUNS > 40 ? 9 : 1 }),
    allInFrom: fc.integer({ min: 0, max: 8 }),
    jamOrFold: fc.boolean(),
    rake: fc.constantFrom(null, "x", 3),
    dealtIn: fc.constantFrom(["SB", "BB"], ["BB"], "SB BB", ["UTG", "BB"], ["BTN", "SB", "BB"]),
    junk: anyValue,
  },
  { requiredKeys: [] },
);
const solveBody = fc.oneof(
  fc.record({
    game: fc.constantFrom("nl", "nl/v2", "nlmtt8", "nl9", "plo", "NL", ""),
    stack: fc.oneof(fc.integer({ min: -10, max: 1200 }), fc.constant("100" as unknown as number)),
    changes,
  }),
  fc.record({ config: anyValue, stack: fc.integer({ min: 1, max: 300 }) }),
  anyValue,
);

describe("grammar-aware fuzz, seed fixed", () => {
  it("solve requests: 202, 400 or 429, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(solveBody, async (body) => {
        const res = await fetch(`${t.base}/api/v1/solves`, {
          method: "POST",
          headers: { "content-type": "application/json", ...auth() },
          body: JSON.stringify(body),
        });
        const status = res.status;
        const text = await res.clone().text();
        await expectSane(res, JSON.stringify(body).slice(0, 200));
        if (status === 202) {
          // Cancel at once: the fuzz checks the door, not the solver.
          const id = (JSON.parse(text) as { solve: { id: string } }).solve.id;
          await fetch(`${t.base}/api/v1/solves/${id}`, { method: "DELETE", headers: auth() });
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("feature requests: never a 5xx", async () => {
    const body = fc.oneof(
      fc.record(
        {
          kind: fc.constantFrom("feature", "data", "bug", "other", "x"),
          text: fc.string({ maxLength: 5000 }),
          game: anyValue,
          stack: anyValue,
          spot: anyValue,
        },
        { requiredKeys: [] },
      ),
      anyValue,
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom("application/json", "text/plain"), async (b, type) => {
        const res = await fetch(`${t.base}/api/v1/requests`, {
          method: "POST",
          headers: { "content-type": type, ...auth() },
          body: JSON.stringify(b),
        });
        await expectSane(res, JSON.stringify(b).slice(0, 120));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("postflop reads with near-miss boards, paths and combos: never a 5xx", async () => {
    const card = fc
      .tuple(fc.constantFrom(..."AKQJT98765432Xa1"), fc.constantFrom(..."shdcx"))
      .map(([r, s]) => r + s);
    const board = fc.array(card, { minLength: 0, maxLength: 6 }).map((c) => c.join(""));
    const step = fc.oneof(fc.constantFrom("check", "bet 75", "call", "fold", "raise", "allin", ""), card);
    const path = fc.array(step, { maxLength: 5 }).map((s) => s.join(","));
    const combo = fc.oneof(
      card.chain((a) => card.map((b) => a + b)),
      fc.string({ maxLength: 6 }),
    );
    const route = fc.constantFrom("node", "range", "explain", "report");
    await fc.assert(
      fc.asyncProperty(route, board, path, combo, async (r, b, p, c) => {
        const q = new URLSearchParams({ board: b, path: p, combo: c });
        if (r === "report" || r === "range") q.delete("combo");
        const res = await fetch(`${t.base}/api/v1/postflop/3bp-bb-btn-100bb/${r}?${q}`, { headers: auth() });
        await expectSane(res, `${r}?${q}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
