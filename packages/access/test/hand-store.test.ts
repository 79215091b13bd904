/** Uploaded hands and upload links on SQLite and PostgreSQL: per-holder storage, dedup, filters, links. */

import { afterEach, describe, expect, it } from "vitest";
import { AccessStore, type HandRow, HandStore } from "../src/index.js";
import { dropSchemas, freshSchema, POSTGRES_AVAILABLE, TEST_DATABASE_URL } from "./backends.js";

const open: AccessStore[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await dropSchemas(schemas);
});

async function storeFor(backend: "sqlite" | "postgres"): Promise<AccessStore> {
  const schema = backend === "postgres" ? freshSchema() : undefined;
  if (schema) schemas.push(schema);
  const s = await AccessStore.open(backend === "sqlite" ? ":memory:" : TEST_DATABASE_URL, {
    ...(schema ? { schema } : {}),
  });
  open.push(s);
  return s;
}

/** A row as the analysis library writes it (the values are a real hand's: PokerStars #109688230087). */
function row(handId: string, o: Partial<HandRow> = {}): HandRow {
  return {
    site: "pokerstars",
    handId,
    playedAt: "2014-01-06T15:23:24.000Z",
    game: "nlhe",
    format: "cash",
    stakes: "$0.05/$0.10",
    bb: 0.1,
    currency: "USD",
    tableName: "Skat III 100-250 bb, Ante",
    tournamentId: null,
    hero: "numbush",
    position: "SB",
    holeCards: "AhKs",
    handClass: "AKo",
    line: "three_bet",
    showdown: true,
    net: 11.31,
    netBb: 113.1,
    adjustedBb: 84.25,
    summary: JSON.stringify({ v: 1 }),
    hand: JSON.stringify({ id: handId }),
    ...o,
  };
}

describe.each([
  { backend: "sqlite" as const, available: true },
  { backend: "postgres" as const, available: POSTGRES_AVAILABLE },
])("$backend", ({ backend, available }) => {
  describe.skipIf(!available)("hands", () => {
    it("stores hands per key holder, deduplicated by site and hand number; nobody reads another's", async () => {
      const access = await storeFor(backend);
      const hands = new HandStore(access.database);
      const first = await hands.insert("alice", "up_1", [row("1"), row("2"), row("1")]);
      expect(first).toEqual({ stored: 2, duplicates: 1, refused: 0, total: 2 });
      // The same hands again, and one new: only the new one is stored.
      const again = await hands.insert("alice", "up_2", [row("1"), row("2"), row("3")]);
      expect(again).toEqual({ stored: 1, duplicates: 2, refused: 0, total: 3 });
      // Another site's hand with the same number is another hand.
      expect((await hands.insert("alice", "up_3", [row("1", { site: "ggpoker" })])).stored).toBe(1);
      // Bob uploads the same hand: his own copy; neither sees the other's.
      expect((await hands.insert("bob", "up_4", [row("1", { net: -5 })])).stored).toBe(1);
      expect(await hands.countAll("alice")).toBe(4);
      expect(await hands.countAll("bob")).toBe(1);
      const bobs = await hands.list("bob", {}, { limit: 100, fields: "hand" });
      expect(bobs.map((h) => [h.site, h.handId, h.net, h.uploadId])).toEqual([
        ["pokerstars", "1", -5, "up_4"],
      ]);
      expect(await hands.get("bob", "pokerstars", "2")).toBeNull();
      expect((await hands.get("alice", "pokerstars", "2"))?.hand).toBe(JSON.stringify({ id: "2" }));
      expect(await hands.list("carol", {}, { limit: 100 })).toEqual([]);
    });

    it("filters on every column and pages newest first", async () => {
      const access = await storeFor(backend);
      const hands = new HandStore(access.database);
      await hands.insert("k", "up_a", [
        row("10", { playedAt: "2024-01-01T10:00:00.000Z", position: "BTN", line: "single_raised", net: 2 }),
        row("11", { playedAt: "2024-01-01T10:05:00.000Z", position: "BB", showdown: false, net: -1 }),
        row("12", { playedAt: "2024-01-02T09:00:00.000Z", handClass: "QQ", holeCards: "QsQh", net: 0 }),
        row("13", {
          playedAt: "2024-01-03T09:00:00.000Z",
          site: "ggpoker",
          format: "tournament",
          tournamentId: "77",
          currency: null,
          hero: null,
          position: null,
        }),
      ]);
      const ids = async (q: Parameters<HandStore["list"]>[1], order?: "asc" | "desc") =>
        (await hands.list("k", q, { limit: 10, ...(order ? { order } : {}) })).map((h) => h.handId);
      expect(await ids({})).toEqual(["13", "12", "11", "10"]);
      expect(await ids({}, "asc")).toEqual(["10", "11", "12", "13"]);
      expect(await ids({ from: "2024-01-01T10:01", to: "2024-01-03" })).toEqual(["12", "11"]);
      expect(await ids({ sites: ["ggpoker"] })).toEqual(["13"]);
      expect(await ids({ formats: ["tournament"], tournamentIds: ["77"] })).toEqual(["13"]);
      expect(await ids({ positions: ["BTN", "BB"] })).toEqual(["11", "10"]);
      expect(await ids({ handClasses: ["QQ"] })).toEqual(["12"]);
      expect(await ids({ holeCards: ["QsQh"] })).toEqual(["12"]);
      expect(await ids({ lines: ["single_raised"] })).toEqual(["10"]);
      expect(await ids({ showdown: false })).toEqual(["11"]);
      expect(await ids({ result: "won" })).toEqual(["13", "10"]);
      expect(await ids({ result: "lost" })).toEqual(["11"]);
      expect(await ids({ result: "even" })).toEqual(["12"]);
      expect(await ids({ heroOnly: true, stakes: ["$0.05/$0.10"] })).toEqual(["12", "11", "10"]);
      expect(await ids({ positions: [] })).toEqual([]);
      expect(await ids({ uploadId: "up_b" })).toEqual([]);
      expect(await hands.count("k", { heroOnly: true })).toBe(3);
      const page = await hands.list("k", {}, { offset: 1, limit: 2 });
      expect(page.map((h) => h.handId)).toEqual(["12", "11"]);
      // Columns only unless asked: no summary or hand text.
      expect(page[0]!.summary).toBe("");
      expect(page[0]).toMatchObject({ bb: 0.1, showdown: true, adjustedBb: 84.25, currency: "USD" });
    });

    it("refuses hands beyond the per-key maximum and says how many", async () => {
      const access = await storeFor(backend);
      const hands = new HandStore(access.database, { maxHandsPerKey: 3 });
      expect(await hands.insert("k", "u1", [row("1"), row("2")])).toMatchObject({ stored: 2, total: 2 });
      expect(await hands.insert("k", "u2", [row("1"), row("3"), row("4"), row("5")])).toEqual({
        stored: 1,
        duplicates: 1,
        refused: 2,
        total: 3,
      });
      // Another key holder has room of their own.
      expect((await hands.insert("j", "u3", [row("1")])).stored).toBe(1);
      // Uploads at once cannot together go past the maximum: the count and the inserts are one step.
      const racing = await Promise.all(
        [0, 1, 2, 3, 4].map((n) => hands.insert("r", `up_r${n}`, [row(`r${n}a`), row(`r${n}b`)])),
      );
      expect(racing.reduce((x, r) => x + r.stored, 0)).toBe(3);
      expect(racing.reduce((x, r) => x + r.refused, 0)).toBe(7);
      expect(await hands.countAll("r")).toBe(3);
    });
  });

  describe.skipIf(!available)("upload links", () => {
    it("are single-use, expire, and say which when refused", async () => {
      const access = await storeFor(backend);
      let now = new Date("2026-03-10T12:00:00.000Z");
      const hands = new HandStore(access.database, { clock: () => now });
      const link = await hands.createLink("alice", 60, "numbush");
      expect(link.token).toMatch(/^hul_[A-Za-z0-9_-]{43}$/);
      expect(link.expiresAt).toBe("2026-03-10T12:01:00.000Z");
      // Checking does not use it up.
      await hands.checkLink(link.token);
      await hands.checkLink(link.token);
      expect(await hands.claimLink(link.token)).toEqual({ keyId: "alice", hero: "numbush" });
      await expect(hands.claimLink(link.token)).rejects.toMatchObject({
        status: 404,
        message: expect.stringMatching(/already used/),
      });
      await expect(hands.checkLink(link.token)).rejects.toMatchObject({ hint: { reason: "used" } });
      const late = await hands.createLink("alice", 60);
      now = new Date("2026-03-10T12:01:00.000Z");
      await expect(hands.claimLink(late.token)).rejects.toMatchObject({
        status: 404,
        hint: { reason: "expired" },
      });
      await expect(hands.checkLink(late.token)).rejects.toMatchObject({ hint: { reason: "expired" } });
      await expect(hands.claimLink("hul_nothing")).rejects.toMatchObject({ message: /No such upload link/ });
      await expect(hands.claimLink(`hul_${"A".repeat(43)}`)).rejects.toMatchObject({
        message: /No such upload link/,
      });
    });

    it("one link, two uploads at once: exactly one claims it", async () => {
      const access = await storeFor(backend);
      const hands = new HandStore(access.database);
      const link = await hands.createLink("alice", 60);
      const outcomes = await Promise.allSettled([
        hands.claimLink(link.token),
        hands.claimLink(link.token),
        hands.claimLink(link.token),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    });
  });
});
