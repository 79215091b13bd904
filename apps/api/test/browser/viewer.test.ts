/// <reference lib="dom" />
/**
 * The range viewer in a real browser (Debian's Chromium through playwright-core) against the real app on
 * the fixture packs: the site is apps/web's build, served by the API at /.
 */

import type { Node } from "@ranges/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { BROWSER_AVAILABLE, layoutShift, siteInBrowser, watchPage } from "./chromium.js";

const site = siteInBrowser();

async function apiNode(game: string, stack: number, history: string): Promise<Node> {
  const q = new URLSearchParams({ stack: String(stack), history });
  const res = await fetch(`${site.server.base}/api/v1/ranges/${game}/node?${q}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Node;
}

/** The frequencies every grid cell shows, by hand. */
async function gridFreqs(page: Page): Promise<Record<string, Record<string, number>>> {
  return page.$$eval("button.cell", (cells) =>
    Object.fromEntries(
      cells.map((c) => [c.getAttribute("data-hand"), JSON.parse(c.getAttribute("data-freqs") ?? "{}")]),
    ),
  );
}

/** Waits until the grid shows the node at `history` (loaded, not dimmed). */
async function waitForNode(page: Page, history: string): Promise<void> {
  await page.waitForFunction(
    (h) =>
      document.querySelector('[data-testid="history"]')?.textContent === h &&
      document.querySelector("main")?.getAttribute("aria-busy") === "false" &&
      document.querySelector("button.cell[data-freqs]") !== null,
    history,
    { timeout: 60_000 },
  );
}

function expectGridMatches(shown: Record<string, Record<string, number>>, node: Node): void {
  expect(Object.keys(shown)).toHaveLength(169);
  for (const [hand, freqs] of Object.entries(shown)) {
    for (const a of node.actions) expect(freqs[a.action], `${hand} ${a.action}`).toBe(a.weights[hand] ?? 0);
  }
}

describe.skipIf(!BROWSER_AVAILABLE)("range viewer", () => {
  it("clicks through the action path to a node and shows the API's numbers", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Layout shifts (Chromium's layout-shift entries) are summed from the first paint on.
    const watch = await watchPage(page);
    await page.goto(`${site.server.base}/`);
    // The default view: nl/v2 at 100bb, the first seat to act.
    await waitForNode(page, "UTG");
    expect(new URL(page.url()).searchParams.get("game")).toBe(null);
    await page.selectOption("select >> nth=0", "nl/v2");
    await page.selectOption("select >> nth=1", "100");
    await waitForNode(page, "UTG");

    // UTG folds, HJ folds: the CO's decision.
    await page.click('a.action:has-text("Fold")');
    await waitForNode(page, "UTG_Fold_HJ");
    await page.click('a.action:has-text("Fold")');
    await waitForNode(page, "UTG_Fold_HJ_Fold_CO");
    const url = new URL(page.url());
    expect(url.searchParams.get("game")).toBe("nl/v2");
    expect(url.searchParams.get("stack")).toBe("100");
    expect(url.searchParams.get("history")).toBe("UTG_Fold_HJ_Fold_CO");

    const node = await apiNode("nl/v2", 100, "UTG_Fold_HJ_Fold_CO");
    expectGridMatches(await gridFreqs(page), node);
    expect(await page.textContent('[data-testid="reach"]')).toBe(String(node.reach));
    for (const a of node.actions) {
      const text = await page.textContent(`[data-testid="combos-${a.action}"]`);
      expect(text).toContain(`${a.combos.toFixed(1)} combos`);
    }
    // The path grammar and one crumb per step.
    expect(await page.$$eval(".pathbar li", (li) => li.map((l) => l.textContent))).toEqual([
      "UTG Fold",
      "HJ Fold",
      "CO ?",
    ]);

    // EVs on hover: AKs's row per action.
    await page.hover('button.cell[data-hand="AKs"]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="detail-hand"]')?.textContent?.startsWith("AKs"),
    );
    const rows = await page.$$eval(".details tbody tr", (trs) =>
      trs.map((tr) => ({
        action: tr.getAttribute("data-action"),
        freq: tr.querySelector('[data-testid="detail-freq"]')?.textContent,
        ev: tr.querySelector('[data-testid="detail-ev"]')?.textContent,
      })),
    );
    expect(rows.map((r) => r.action)).toEqual(node.actions.map((a) => a.action));
    for (const [i, a] of node.actions.entries()) {
      const ev = a.evs.AKs;
      expect(rows[i]!.ev).toBe(ev === undefined ? "–" : ev.toFixed(3));
      expect(rows[i]!.freq).toBe(`${(Math.round((a.weights.AKs ?? 0) * 1000) / 10).toFixed(1)}%`);
    }

    // Keyboard: the grid is one tab stop; arrows move the focus and the details follow.
    await page.focus('button.cell[data-hand="AA"]');
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-hand"))).toBe("KK");
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain("KK");
    expect(await page.$$eval('button.cell[tabindex="0"]', (b) => b.length)).toBe(1);

    // Back walks the path. Every state the page passes through on the way is recorded: a grid that is not
    // busy shows the node its history names, never the previous node's numbers under the new history.
    await page.evaluate(() => {
      const w = window as unknown as { states: { history: string; busy: string; freqs: string }[] };
      w.states = [];
      const record = () =>
        w.states.push({
          history: document.querySelector('[data-testid="history"]')?.textContent ?? "",
          busy: document.querySelector("main")?.getAttribute("aria-busy") ?? "",
          freqs: document.querySelector('button.cell[data-hand="22"]')?.getAttribute("data-freqs") ?? "",
        });
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    });
    await page.goBack();
    await waitForNode(page, "UTG_Fold_HJ");
    const back = await apiNode("nl/v2", 100, "UTG_Fold_HJ");
    expectGridMatches(await gridFreqs(page), back);
    const states = await page.evaluate(
      () => (window as unknown as { states: { history: string; busy: string; freqs: string }[] }).states,
    );
    const settled = states.filter((st) => st.history === "UTG_Fold_HJ" && st.busy === "false");
    expect(settled.length).toBeGreaterThan(0);
    for (const st of settled) {
      const freqs = JSON.parse(st.freqs || "{}") as Record<string, number>;
      for (const a of back.actions)
        expect(freqs[a.action], `22 ${a.action} while not busy`).toBe(a.weights["22"] ?? 0);
    }

    // Nothing moved while nodes loaded, and nothing went wrong.
    const { cls, shifts } = await layoutShift(page);
    expect(cls, shifts.join("; ")).toBeLessThan(0.02);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("opens a deep link, and a phone-sized screen shows the whole grid without scrolling sideways", async () => {
    const page = await site.browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`${site.server.base}/?game=nl/v2&stack=100&history=UTG_60%25_HJ`);
    await waitForNode(page, "UTG_60%_HJ");
    expectGridMatches(await gridFreqs(page), await apiNode("nl/v2", 100, "UTG_60%_HJ"));
    const widths = await page.evaluate(() => ({
      doc: document.documentElement.scrollWidth,
      view: window.innerWidth,
      grid: document.querySelector("table.grid")!.getBoundingClientRect().width,
    }));
    expect(widths.view).toBe(390);
    expect(widths.doc).toBeLessThanOrEqual(390);
    expect(widths.grid).toBeGreaterThan(300);
    // A tap shows the class's details.
    await page.tap('button.cell[data-hand="QQ"]');
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain("QQ");
    await page.close();
  });

  it("shows the API's message for a path the tree lacks, and asks for a key for keyed games", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.server.base}/?game=nl/v2&stack=100&history=CO`);
    const alert = page.locator('[role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain("UTG, HJ must act before CO");

    await page.goto(`${site.server.base}/?game=nlmtt8&stack=40&history=UTG`);
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain("needs an API key");
    expect(await page.isVisible('input[type="password"]')).toBe(true);
    await page.close();
  });
});
