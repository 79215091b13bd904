/**
 * The turn and river solver is shared: each caller holds at most its share of the slots (one key cannot keep
 * every other caller out), and a combo that cannot be a hand is refused before anything is solved.
 */

import { fileURLToPath } from "node:url";
import { PostflopPacks } from "@ranges/postflop";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, start, type TestServer } from "./helpers.js";

const DATA = fileURLToPath(new URL("../../../data", import.meta.url));
const PACK = "3bp-bb-btn-100bb";

let t: TestServer;
let postflop: PostflopPacks;
let alice: string;
let bob: string;

beforeAll(async () => {
  // Four slots, one per caller; short solves (the answers' quality is tested elsewhere).
  postflop = PostflopPacks.open({
    dir: `${DATA}/postflop`,
    subgames: { threads: 1, maxIterations: 20, maxQueue: 4, perCaller: 1 },
  });
  t = await start({ packsDir: `${DATA}/packs`, postflop });
  alice = (await t.access.createKey({ name: "alice" })).key;
  bob = (await t.access.createKey({ name: "bob" })).key;
});
afterAll(async () => {
  await t?.close();
});

const turn = (key: string, card: string, extra = "") =>
  fetch(`${t.base}/api/v1/postflop/${PACK}/node?board=KsJh5d&path=check,check,${card}${extra}`, bearer(key));

describe("the on-demand turn and river solver, shared", () => {
  it("refuses combo=XX with 400 before solving the turn", async () => {
    for (const path of ["node", "explain"]) {
      const res = await fetch(
        `${t.base}/api/v1/postflop/${PACK}/${path}?board=KsJh5d&path=check,check,7c&combo=XX`,
        bearer(alice),
      );
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_hand");
    }
    const clash = await turn(alice, "7c", "&combo=KsKd");
    expect(clash.status).toBe(400);
    expect(postflop.subgames.solves).toBe(0);
  });

  it("holds one key to its share: its second turn waits for its first (429), another key is served", async () => {
    const [first, second] = await Promise.all([turn(alice, "7c"), turn(alice, "8c"), turn(bob, "6c")]).then(
      async ([a1, a2, b]) => {
        expect(b.status).toBe(200);
        return [a1, a2];
      },
    );
    const statuses = [first!.status, second!.status].sort();
    expect(statuses).toEqual([200, 429]);
    const refused = first!.status === 429 ? first! : second!;
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/the most one caller may hold/);
    // Once answered, the same key may ask again.
    expect((await turn(alice, "8c")).status).toBe(200);
  });
});
