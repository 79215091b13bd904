import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessStore } from "@ranges/access";
import { NodeSchema } from "@ranges/schema";
import { packPath, RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/commands.js";

let dir: string;
const savedEnv = process.env.ACCESS_DB;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "api-cli-"));
  process.env.ACCESS_DB = join(dir, "var", "access.sqlite");
});
afterAll(() => {
  if (savedEnv === undefined) delete process.env.ACCESS_DB;
  else process.env.ACCESS_DB = savedEnv;
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("ranges keys", () => {
  it("create prints the key once; list shows it without the secret; revoke stops it", async () => {
    const created = await run("keys", "create", "--name", "Alice", "--plan", "pro", "--quota", "5000");
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/Created key pr_[0-9a-f]{12} "Alice" \(plan pro, 5000 calls per UTC day\)/);
    const key = created.out.split("\n").at(-1)!;
    expect(key).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);

    const list = await run("keys", "list");
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/pr_[0-9a-f]{12}\s+Alice\s+pro\s+5000\s+0\s+.*active/);
    expect(list.out).not.toContain(key);

    const access = await AccessStore.open(process.env.ACCESS_DB!);
    expect((await access.authorize({ authorization: `Bearer ${key}`, ip: "x", keyless: false })).ok).toBe(
      true,
    );
    const id = key.slice(3, 15);
    expect((await run("keys", "revoke", id)).code).toBe(0);
    // Another connection's revocation applies from the next event-loop turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect((await access.authorize({ authorization: `Bearer ${key}`, ip: "x", keyless: false })).ok).toBe(
      false,
    );
    await access.close();

    const again = await run("keys", "revoke", id);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/No active key/);
  });

  it("unmetered by default; bad input exits 1 with the usage", async () => {
    expect((await run("keys", "create", "--name", "bob")).out).toMatch(/plan standard, unmetered/);
    const noName = await run("keys", "create");
    expect(noName.code).toBe(1);
    expect(noName.err).toMatch(/needs --name[\s\S]*Usage:/);
    expect((await run("keys", "create", "--name", "x", "--quota", "abc")).err).toMatch(/--quota must be/);
    expect((await run("keys", "create", "--name", "x", "--bogus")).code).toBe(1);
    expect((await run("nope")).err).toMatch(/Unknown command "nope"/);
    expect((await run()).code).toBe(1);
    expect((await run("--help")).code).toBe(0);
  });
});

describe("ranges import monker", () => {
  it("imports a folder into a pack the store then serves", async () => {
    const folder = join(dir, "monker");
    mkdirSync(folder);
    // UTG folds or raises 60% of the pot; the rest of the classes are absent (weight 0).
    writeFileSync(join(folder, "0.rng"), "AA\n0\nKK\n0.25\n72o\n1\n");
    writeFileSync(join(folder, "40060.rng"), "AA\n1\nKK\n0.75\n72o\n0\n");
    const out = join(dir, "packs");
    const r = await run("import", "monker", folder, "--game", "nl", "--stack", "100", "--out", out);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Imported \d+ nodes for nl at 100bb/);
    expect(existsSync(packPath(out, "nl", 100))).toBe(true);
    const node = NodeSchema.parse(
      JSON.parse(
        RangeStore.open({ packsDir: out }).json({
          kind: "node",
          game: "nl",
          stack: 100,
          history: "UTG",
        }).body,
      ),
    );
    expect(node.actions.map((a) => a.action)).toEqual(["Fold", "60%"]);
    expect(node.actions[1]!.weights).toMatchObject({ AA: 1, KK: 0.75 });
  });

  it("reports import errors with exit code 1", async () => {
    const missing = await run("import", "monker", join(dir, "nope"), "--game", "nl", "--stack", "100");
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/Cannot read the folder/);
    expect((await run("import", "monker", dir, "--game", "chess", "--stack", "100")).err).toMatch(
      /not a game/,
    );
    expect((await run("import", "csv", dir)).err).toMatch(/supported: monker/);
    expect((await run("import", "monker", dir, "--game", "nl")).err).toMatch(/needs --game and --stack/);
  });
});
