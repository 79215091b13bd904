// Takes the README's screenshots of the web site (docs/screenshots/*.png) from the built API on the
// committed packs, in Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium). Run after `pnpm build`:
//   node scripts/screenshots.mjs
// It starts its own server on a free port with a throw-away account database (with a key made by the CLI
// for the PLO and postflop pages; with --account it also signs up a demo account and creates keys there),
// so nothing of yours is touched.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "apps/api/package.json"));
const { chromium } = require("playwright-core");
const out = join(root, "docs/screenshots");
const scratch = mkdtempSync(join(tmpdir(), "screenshots-"));
const port = 3300 + Math.floor(Math.random() * 500);
const base = `http://127.0.0.1:${port}`;

// A key for the keyed pages (PLO, postflop), made before the server holds the database.
const made = spawnSync(
  process.execPath,
  [join(root, "apps/api/dist/cli.js"), "keys", "create", "--name", "screenshots", "--quota", "unmetered"],
  { env: { ...process.env, ACCESS_DB: join(scratch, "access.sqlite"), DATABASE_URL: "" }, encoding: "utf8" },
);
const viewerKey = /pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/.exec(made.stdout)?.[0];
if (!viewerKey) throw new Error(`could not create a key: ${made.stderr || made.stdout}`);

const server = spawn(process.execPath, [join(root, "apps/api/dist/main.js")], {
  env: {
    ...process.env,
    PORT: String(port),
    ACCESS_DB: join(scratch, "access.sqlite"),
    DATABASE_URL: "",
    SOLVE_WORKERS: "0",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const stop = () => {
  server.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 120) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const ready = (page, history) =>
    page.waitForFunction(
      (h) =>
        document.querySelector('[data-testid="history"]')?.textContent === h &&
        document.querySelector("main")?.getAttribute("aria-busy") === "false",
      history,
      { timeout: 60_000 },
    );

  const page = await browser.newPage({ viewport: { width: 1200, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/?game=nl/v2&stack=100&history=UTG_Fold_HJ_Fold_CO`);
  await ready(page, "UTG_Fold_HJ_Fold_CO");
  await page.hover('button.cell[data-hand="A5s"]');
  await page.screenshot({ path: join(out, "viewer.png") });

  const phone = await browser.newPage({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  });
  await phone.goto(`${base}/?game=nl/v2&stack=100&history=UTG_60%25_HJ_Fold_CO_Fold_BTN`);
  await ready(phone, "UTG_60%_HJ_Fold_CO_Fold_BTN");
  await phone.tap('button.cell[data-hand="JTs"]');
  await phone.screenshot({ path: join(out, "viewer-phone.png"), fullPage: true });

  // PLO and postflop need a key: the viewer reads it from this browser's storage.
  const keyed = await browser.newContext({ viewport: { width: 1200, height: 1000 }, deviceScaleFactor: 1 });
  await keyed.addInitScript((k) => window.localStorage.setItem("ranges.viewerKey", k), viewerKey);
  const idle = (p) =>
    p.waitForFunction(
      () =>
        document.querySelector("main")?.getAttribute("aria-busy") === "false" &&
        document.querySelector(".dim") === null,
      undefined,
      { timeout: 120_000 },
    );
  const plo = await keyed.newPage();
  await plo.goto(`${base}/?game=plo&stack=100&history=UTG_Fold_HJ_Fold_CO`);
  await ready(plo, "UTG_Fold_HJ_Fold_CO");
  await idle(plo);
  await plo.fill('input[name="class-search"]', "(Ax)xx");
  await plo.click('button[data-sort="ev:1"]');
  await plo.hover('button.class-name[data-row="0"]');
  await plo.screenshot({ path: join(out, "plo.png") });

  const pf = await keyed.newPage();
  await pf.goto(`${base}/postflop?pack=srp-btn-bb-100bb&board=AsQh6d&path=check`);
  await idle(pf);
  await pf.waitForSelector('[data-testid="range-other"] [data-weight]', { timeout: 120_000 });
  await pf.hover('button.cell[data-hand="KQo"]');
  await pf.waitForSelector('[data-testid="detail-combos"]');
  await pf.click('[data-testid="detail-combos"] tr[data-combo="KdQc"] button');
  await pf.waitForSelector('[data-testid="combo-evs"] [data-action]');
  await pf.screenshot({ path: join(out, "postflop.png"), fullPage: true });

  // A turn dealt: the API solves it on demand, the page then gives its exploitability.
  await pf.goto(`${base}/postflop?pack=3bp-bb-btn-100bb&board=Ks7h4d&path=check,check,2c`);
  await idle(pf);
  await pf.waitForSelector('[data-testid="exploitability"]', { timeout: 120_000 });
  await pf.hover('button.cell[data-hand="AQs"]');
  await pf.screenshot({
    path: join(out, "postflop-turn.png"),
    clip: { x: 0, y: 0, width: 1200, height: 760 },
  });

  if (process.argv.includes("--account")) {
    const acc = await browser.newPage({ viewport: { width: 1200, height: 860 }, deviceScaleFactor: 1 });
    await acc.goto(`${base}/account`);
    await acc.click("text=Create an account");
    await acc.fill('input[name="email"]', "demo@example.com");
    await acc.fill('input[name="password"]', "correct horse battery staple");
    await acc.click('button[type="submit"]');
    await acc.waitForSelector('[data-testid="account-email"]');
    await acc.fill('input[name="keyName"]', "laptop");
    await acc.click('button:has-text("Create key")');
    const secret = await acc.textContent('[data-testid="new-key"]');
    // A few calls on the key, so its meter shows them once the list reloads (after the next key).
    for (const history of ["UTG", "UTG_Fold_UTG1", "UTG_Fold_UTG1_Fold_LJ"]) {
      await fetch(`${base}/api/v1/ranges/nlmtt8/node?stack=40&history=${history}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
    }
    await acc.fill('input[name="keyName"]', "phone");
    await acc.click('button:has-text("Create key")');
    await acc.waitForFunction(
      () => document.querySelectorAll('table[data-testid="keys"] tbody tr').length === 2,
    );
    await acc.screenshot({ path: join(out, "account.png"), fullPage: true });

    // The OAuth sign-in page an MCP client opens: register a client, start an authorization with PKCE.
    const reg = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Example MCP client",
        redirect_uris: ["http://127.0.0.1:6274/oauth/callback"],
        token_endpoint_auth_method: "none",
      }),
    });
    const { client_id } = await reg.json();
    const { createHash, randomBytes } = await import("node:crypto");
    const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
    const q = new URLSearchParams({
      client_id,
      response_type: "code",
      redirect_uri: "http://127.0.0.1:6274/oauth/callback",
      scope: "mcp",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: `${base}/api/mcp`,
      state: "screenshot",
    });
    await acc.goto(`${base}/oauth/authorize?${q}`);
    await acc.waitForSelector('[data-testid="consent-client"]', { timeout: 60_000 });
    await acc.setViewportSize({ width: 900, height: 460 });
    await acc.screenshot({ path: join(out, "oauth-consent.png") });
  }
  await browser.close();
  console.log(`screenshots written to ${out}`);
} finally {
  stop();
}
