/// <reference lib="dom" />
/**
 * The account area in a real browser: sign up, create a key (shown once), use it in the viewer for a keyed
 * game, see its meter, revoke it, sign out and back in.
 */

import { describe, expect, it } from "vitest";
import { BROWSER_AVAILABLE, siteInBrowser } from "./chromium.js";

const site = siteInBrowser();

describe.skipIf(!BROWSER_AVAILABLE)("account area", () => {
  it("signs up, creates a key, uses it in the viewer, and revokes it", async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.server.base}/account`);
    await page.click('button:has-text("Create an account")');
    await page.fill('input[name="email"]', "player@example.com");
    await page.fill('input[name="password"]', "short");
    await page.click('button[type="submit"]');
    // The browser's own check stops a short password first; past it, the API's message shows.
    expect(
      await page.evaluate(
        () => document.querySelector<HTMLInputElement>('input[name="password"]')!.validity.valid,
      ),
    ).toBe(false);
    await page.fill('input[name="password"]', "a long enough password");
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="account-email"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="account-email"]')).toBe("player@example.com");

    // The session cookie is HTTP-only: the page's script cannot read it.
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "ranges_session")).toMatchObject({
      httpOnly: true,
      sameSite: "Lax",
    });
    expect(await page.evaluate(() => document.cookie)).toBe("");

    await page.fill('input[name="keyName"]', "laptop");
    await page.click('button:has-text("Create key")');
    const secret = (await page.textContent('[data-testid="new-key"]', { timeout: 60_000 }))!;
    expect(secret).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    await page.waitForSelector('table[data-testid="keys"] tbody tr');
    expect(await page.$$eval('table[data-testid="keys"] tbody tr', (rows) => rows.length)).toBe(1);

    // The key goes to the viewer, which now shows a keyed game.
    await page.click('button:has-text("Use in the range viewer")');
    await page.goto(`${site.server.base}/?game=nlmtt8&stack=40&history=UTG`);
    await page.waitForFunction(
      () =>
        document.querySelector("main")?.getAttribute("aria-busy") === "false" &&
        document.querySelector("button.cell[data-freqs]") !== null,
      undefined,
      { timeout: 60_000 },
    );
    expect(await page.isVisible('[role="alert"]')).toBe(false);

    // Its meter counted the viewer's call.
    await page.goto(`${site.server.base}/account`);
    await page.waitForSelector('[data-testid="used-today"]', { timeout: 60_000 });
    expect(Number(await page.textContent('[data-testid="used-today"]'))).toBeGreaterThanOrEqual(1);
    // The secret is not shown again.
    expect(await page.isVisible('[data-testid="new-key"]')).toBe(false);
    expect(await page.content()).not.toContain(secret);

    const viewerKey = () => page.evaluate(() => window.localStorage.getItem("ranges.viewerKey"));
    expect(await viewerKey()).toBe(secret);
    await page.click('button[aria-label="Revoke laptop"]');
    await page.click('button:has-text("Confirm revoke")');
    await page.waitForSelector("tr.revoked", { timeout: 60_000 });
    const res = await fetch(`${site.server.base}/api/v1/ranges/nlmtt8/node?stack=40&history=UTG`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(401);
    // The revoked key does not stay in the browser for the viewer.
    expect(await viewerKey()).toBeNull();

    // Revoking another key leaves the viewer's key; signing out forgets it.
    await page.fill('input[name="keyName"]', "desktop");
    await page.click('button:has-text("Create key")');
    const desktop = (await page.textContent('[data-testid="new-key"]', { timeout: 60_000 }))!;
    await page.click('button:has-text("Use in the range viewer")');
    expect(await viewerKey()).toBe(desktop);
    await page.fill('input[name="keyName"]', "spare");
    await page.click('button:has-text("Create key")');
    await page.waitForFunction(
      (first) => document.querySelector('[data-testid="new-key"]')?.textContent !== first,
      desktop,
      { timeout: 60_000 },
    );
    await page.click('button[aria-label="Revoke spare"]');
    await page.click('button:has-text("Confirm revoke")');
    await page.waitForFunction(() => document.querySelectorAll("tr.revoked").length === 2, undefined, {
      timeout: 60_000,
    });
    expect(await viewerKey()).toBe(desktop);

    // Sign out, and back in.
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('button:has-text("Create an account")');
    expect(await viewerKey()).toBeNull();
    await page.fill('input[name="email"]', "player@example.com");
    await page.fill('input[name="password"]', "a long enough password");
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="account-email"]', { timeout: 60_000 });
    await context.close();
  });

  it("shows the API's message for a wrong password", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.server.base}/account`);
    await page.fill('input[name="email"]', "nobody@example.com");
    await page.fill('input[name="password"]', "not the right one");
    await page.click('button[type="submit"]');
    const alert = page.locator('[role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain("not right");
    await page.close();
  });
});
