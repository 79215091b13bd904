/**
 * The postflop reads over real HTTP (the app on an ephemeral port), on a pack made here by a real small solve
 * (a narrow river spot): keyless pack list, keyed reads, the envelope, and actionable 4xx for bad input.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostflopPacks, runPackJob } from "@ranges/postflop";
import { ErrorBodySchema, ToolEnvelopeSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, start, type TestServer } from "./helpers.js";

let dir: string;
let t: TestServer;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-postflop-"));
  await runPackJob(
    {
      id: "test-river",
      basePack: "test-river",
      tree: "75",
      line: {
        kind: "test",
        description: "a narrow river test spot",
        game: "nl/v2",
        stack: 100,
        oop: "BB",
        ip: "BTN",
        oopSpot: "test",
        ipSpot: "test",
      },
      pot: 10,
      stack: 40,
      rake: { percent: 5, capBb: 0.6 },
      ranges: { oop: "KK,QQ,JJ,AQs,T9s", ip: "AA,KQs,QJs,87s,65s" },
      boards: ["Qs Jh 2h 7c 3d", "Ks 9d 5c 4h 2s"],
    },
    dir,
    { threads: 1, maxIterations: 200, targetPct: 0.3 },
  );
  t = await start({ packsDir: join(dir, "no-preflop-packs"), postflop: PostflopPacks.open({ dir }) });
  key = (await t.access.createKey({ name: "postflop-http" })).key;
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string, withKey = true): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.base}${path}`, withKey ? bearer(key) : {});
  return { status: res.status, body: await res.json() };
}

describe("GET /api/v1/postflop", () => {
  it("lists the packs without a key", async () => {
    const { status, body } = await get("/api/v1/postflop/packs", false);
    expect(status).toBe(200);
    const env = ToolEnvelopeSchema.parse(body);
    expect((env.result.packs as Array<{ pack: string }>).map((p) => p.pack)).toEqual(["test-river"]);
  });

  it("serves node, range, explain and report in the envelope, with a key", async () => {
    const node = ToolEnvelopeSchema.parse(
      (await get("/api/v1/postflop/test-river/node?board=QsJh7d3c2h&path=&combo=KhKd")).body,
    );
    expect(node.coverage.status).toBe("exact");
    expect((node.result.combo as { combo: string }).combo).toBe("KhKd");
    const range = ToolEnvelopeSchema.parse(
      (await get("/api/v1/postflop/test-river/range?board=QsJh7d3c2h&path=check&minReach=0.01")).body,
    );
    expect(range.context.actor).toBe("ip");
    const explain = ToolEnvelopeSchema.parse(
      (await get("/api/v1/postflop/test-river/explain?board=QsJh7d3c2h&combo=QdQc")).body,
    );
    expect(explain.result.explanation).toMatch(/QdQc \(set\)/);
    const report = ToolEnvelopeSchema.parse(
      (await get("/api/v1/postflop/test-river/report?path=&suitTexture=two-tone")).body,
    );
    expect(report.coverage.status).toBe("aggregated_report");
    const compare = ToolEnvelopeSchema.parse(
      (
        await get(
          "/api/v1/postflop/compare?baselinePack=test-river&baselineBoard=QsJh7d3c2h&comparisonPack=test-river&comparisonBoard=Ks9d5c4h2s&limit=3",
        )
      ).body,
    );
    expect(compare.result.mode).toBe("largest_changes");
    const unsolved = ToolEnvelopeSchema.parse(
      (await get("/api/v1/postflop/test-river/node?board=AsAd7c7h3d")).body,
    );
    expect(unsolved.coverage.status).toBe("unsupported");
  });

  it("answers bad input with actionable 4xx, never a 500", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ["/api/v1/postflop/test-river/node?board=QsJh7d3c2h", 401, /key/i],
      ["/api/v1/postflop/nope/node?board=QsJh7d3c2h", 404, /Packs: test-river/],
      ["/api/v1/postflop/test-river/node", 400, /board parameter is required/],
      ["/api/v1/postflop/test-river/node?board=QsJh", 400, /5 distinct cards|has 2 cards|not 5/],
      ["/api/v1/postflop/test-river/node?board=QsJh7d3c2h&path=raise", 404, /is not an action/],
      ["/api/v1/postflop/test-river/node?board=QsJh7d3c2h&combo=zz", 400, /two distinct cards/],
      ["/api/v1/postflop/test-river/range?board=QsJh7d3c2h&minReach=2", 400, /from 0 to 1/],
      ["/api/v1/postflop/test-river/report?pairedness=odd", 400, /unpaired, paired, trips/],
      ["/api/v1/postflop/test-river/node?board=QsJh7d3c2h&bogus=1", 400, /Unknown query parameter/],
      ["/api/v1/postflop/%ZZ/node?board=QsJh7d3c2h", 404, /./],
    ];
    for (const [path, status, message] of cases) {
      const res = await get(path, status !== 401);
      expect(res.status, path).toBe(status);
      expect(ErrorBodySchema.parse(res.body).error.message, path).toMatch(message);
    }
  });
});
