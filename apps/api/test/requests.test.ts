import { FeatureRequestCreatedSchema, FeatureRequestListSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, getJson, start, type TestServer } from "./helpers.js";

let t: TestServer;
let packs: { dir: string; remove: () => void };
let alice: string;
let bob: string;

beforeAll(async () => {
  packs = await fixturePacksDir(false);
  t = await start({ packsDir: packs.dir });
  alice = (await t.access.createKey({ name: "alice" })).key;
  // A spent quota does not stop requests: they are free.
  bob = (await t.access.createKey({ name: "bob", dailyQuota: 0 })).key;
});
afterAll(async () => {
  await t.close();
  packs.remove();
});

const post = (key: string | null, body: string, type = "application/json") =>
  getJson(`${t.base}/api/v1/requests`, {
    method: "POST",
    headers: { "content-type": type, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body,
  });

describe("POST and GET /api/v1/requests", () => {
  it("files a request under the caller's key (201) and lists only the caller's, newest first", async () => {
    const first = await post(
      alice,
      JSON.stringify({ kind: "data", text: "nl at 60bb", game: "nl", stack: 60 }),
    );
    expect(first.status).toBe(201);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const created = FeatureRequestCreatedSchema.parse(first.body);
    expect(created.request).toMatchObject({
      kind: "data",
      text: "nl at 60bb",
      game: "nl",
      stack: 60,
      status: "open",
    });
    const second = FeatureRequestCreatedSchema.parse(
      (await post(alice, JSON.stringify({ kind: "feature", text: "PKO chip EV" }))).body,
    );
    expect((await post(bob, JSON.stringify({ kind: "bug", text: "bob's" }))).status).toBe(201);

    const mine = await getJson(`${t.base}/api/v1/requests`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(mine.status).toBe(200);
    const list = FeatureRequestListSchema.parse(mine.body).requests;
    expect(list.map((r) => r.id)).toEqual([second.request.id, created.request.id]);
    const theirs = await getJson(`${t.base}/api/v1/requests`, {
      headers: { authorization: `Bearer ${bob}` },
    });
    expect(FeatureRequestListSchema.parse(theirs.body).requests.map((r) => r.text)).toEqual(["bob's"]);
    // Free: nothing was counted on the keys' meters.
    expect((await t.access.listKeys()).map((k) => k.usedToday)).toEqual([0, 0]);
  });

  it("needs a key: 401 with a Bearer challenge, also for GET", async () => {
    const res = await post(null, JSON.stringify({ kind: "data", text: "x" }));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect((await getJson(`${t.base}/api/v1/requests`)).status).toBe(401);
  });

  it.each([
    ["not JSON", "{oops", "application/json", /must be a JSON object/],
    ["an array", "[]", "application/json", /must be a JSON object/],
    ["an unknown kind", JSON.stringify({ kind: "wish", text: "x" }), "application/json", /kind/],
    ["an empty text", JSON.stringify({ kind: "data", text: "" }), "application/json", /text/],
    ["an unknown field", JSON.stringify({ kind: "data", text: "x", Game: "nl" }), "application/json", /Game/],
    ["a negative stack", JSON.stringify({ kind: "data", text: "x", stack: -1 }), "application/json", /stack/],
    ["form data", "kind=data&text=x", "application/x-www-form-urlencoded", /application\/json/],
  ])("refuses %s with 400 and says why", async (_what, body, type, message) => {
    const res = await post(alice, body, type);
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toMatch(message);
  });

  it("refuses a body over 1 MiB with 413 and stores nothing", async () => {
    const before = (
      await getJson(`${t.base}/api/v1/requests`, { headers: { authorization: `Bearer ${alice}` } })
    ).body as { requests: unknown[] };
    const res = await post(alice, JSON.stringify({ kind: "data", text: "x".repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    const after = (
      await getJson(`${t.base}/api/v1/requests`, { headers: { authorization: `Bearer ${alice}` } })
    ).body as { requests: unknown[] };
    expect(after.requests).toHaveLength(before.requests.length);
  });

  it("PUT is 405 with Allow: GET, HEAD, POST", async () => {
    const res = await fetch(`${t.base}/api/v1/requests`, { method: "PUT" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toMatch(/POST/);
  });
});
