import { afterEach, describe, expect, it } from "vitest";
import { AccessStore, OAuthRecords } from "../src/index.js";
import { dropSchemas, freshSchema, POSTGRES_AVAILABLE, TEST_DATABASE_URL } from "./backends.js";

const open: AccessStore[] = [];
const schemas: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await dropSchemas(schemas);
});

async function records(backend: "sqlite" | "postgres", clock: () => Date): Promise<OAuthRecords> {
  let access: AccessStore;
  if (backend === "sqlite") {
    access = await AccessStore.open(":memory:");
  } else {
    const schema = freshSchema();
    schemas.push(schema);
    access = await AccessStore.open(TEST_DATABASE_URL, { schema });
  }
  open.push(access);
  return new OAuthRecords(access.database, clock);
}

describe.each([
  { backend: "sqlite" as const, available: true },
  { backend: "postgres" as const, available: POSTGRES_AVAILABLE },
])("$backend", ({ backend, available }) => {
  describe.skipIf(!available)("OAuth records (oidc-provider's adapter)", () => {
    it("stores, finds, updates, expires, consumes and destroys records per model", async () => {
      let now = new Date("2026-03-10T12:00:00.000Z");
      const r = await records(backend, () => now);
      const codes = r.adapterFor("AuthorizationCode");
      await codes.upsert("c1", { grantId: "g1", accountId: "acc_1", scope: "mcp" }, 60);
      expect(await codes.find("c1")).toEqual({ grantId: "g1", accountId: "acc_1", scope: "mcp" });
      // Models are apart: the same id of another model is another record.
      expect(await r.adapterFor("AccessToken").find("c1")).toBeUndefined();
      await codes.consume("c1");
      expect((await codes.find("c1"))!.consumed).toBe(Math.floor(now.getTime() / 1000));
      await codes.upsert("c1", { grantId: "g1", accountId: "acc_1", scope: "mcp openid" }, 60);
      expect((await codes.find("c1"))!.scope).toBe("mcp openid");
      now = new Date(now.getTime() + 61_000);
      expect(await codes.find("c1")).toBeUndefined();
      expect(await r.pruneExpired()).toBe(1);

      const clients = r.adapterFor("Client");
      await clients.upsert("client-1", { client_id: "client-1", redirect_uris: ["http://127.0.0.1/cb"] });
      // A client that received a grant has no expiry.
      await r.adapterFor("Grant").upsert("grant-1", { accountId: "acc_1", clientId: "client-1" });
      now = new Date(now.getTime() + 365 * 86_400_000);
      expect((await clients.find("client-1"))!.client_id).toBe("client-1");
      await clients.destroy("client-1");
      expect(await clients.find("client-1")).toBeUndefined();
    });

    it("finds sessions by uid and revokes a grant's tokens, not other grants' or the grant itself", async () => {
      const r = await records(backend, () => new Date());
      const sessions = r.adapterFor("Session");
      await sessions.upsert("s1", { uid: "u1", accountId: "acc_1" }, 3600);
      expect((await sessions.findByUid("u1"))!.accountId).toBe("acc_1");
      expect(await sessions.findByUid("u2")).toBeUndefined();

      const tokens = r.adapterFor("AccessToken");
      const refresh = r.adapterFor("RefreshToken");
      const grants = r.adapterFor("Grant");
      await grants.upsert("g1", { accountId: "acc_1" }, 3600);
      await tokens.upsert("t1", { grantId: "g1" }, 3600);
      await refresh.upsert("r1", { grantId: "g1" }, 3600);
      await tokens.upsert("t2", { grantId: "g2" }, 3600);
      await tokens.revokeByGrantId("g1");
      expect(await tokens.find("t1")).toBeUndefined();
      expect(await refresh.find("r1")).toBeUndefined();
      expect(await tokens.find("t2")).toBeDefined();
      expect(await grants.find("g1")).toBeDefined();
    });

    it("prunes registered clients that never received a grant after 30 days", async () => {
      let now = new Date("2026-03-10T12:00:00.000Z");
      const r = await records(backend, () => now);
      const clients = r.adapterFor("Client");
      await clients.upsert("unused", { client_id: "unused", client_name: "never allowed" });
      await clients.upsert("used", { client_id: "used", client_name: "allowed" });
      now = new Date("2026-03-20T12:00:00.000Z");
      await r.adapterFor("Grant").upsert("g1", { accountId: "acc_1", clientId: "used" }, 365 * 86_400);
      // A client upserted again keeps its state (the grant made "used" permanent).
      await clients.upsert("used", { client_id: "used", client_name: "allowed, renamed" });
      now = new Date("2026-04-09T11:59:00.000Z");
      expect(await r.pruneExpired()).toBe(0);
      expect(await clients.find("unused")).toBeDefined();
      now = new Date("2026-04-09T12:00:01.000Z");
      expect(await clients.find("unused")).toBeUndefined();
      expect(await r.pruneExpired()).toBe(1);
      expect(await clients.find("used")).toMatchObject({ client_name: "allowed, renamed" });
      // Another number of days, when configured.
      const short = new OAuthRecords((r as unknown as { database: never }).database, () => now, {
        unusedClientDays: 1,
      });
      await short.adapterFor("Client").upsert("brief", { client_id: "brief" });
      now = new Date("2026-04-10T12:00:02.000Z");
      expect(await short.adapterFor("Client").find("brief")).toBeUndefined();
    });

    it("counts registrations per client address and UTC day, exactly under concurrency", async () => {
      let now = new Date("2026-03-10T12:00:00.000Z");
      const r = await records(backend, () => now);
      const raced = await Promise.all(
        Array.from({ length: 6 }, (_, i) => r.countRegistration(`2001:db8::${i + 1}`, 4)),
      );
      expect(raced.filter(Boolean)).toHaveLength(4);
      expect(await r.countRegistration("203.0.113.1", 4)).toBe(true);
      now = new Date("2026-03-11T00:00:00.000Z");
      expect(await r.countRegistration("2001:db8::9", 4)).toBe(true);
    });

    it("keeps one server secret per name, made once", async () => {
      const r = await records(backend, () => new Date());
      let made = 0;
      const make = () => `secret-${++made}`;
      const [a, b] = await Promise.all([
        r.serverSecret("cookie-keys", make),
        r.serverSecret("cookie-keys", make),
      ]);
      expect(a).toBe(b);
      expect(await r.serverSecret("cookie-keys", make)).toBe(a);
      expect(await r.serverSecret("other", () => "x")).toBe("x");
    });
  });
});
