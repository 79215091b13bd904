/// <reference lib="dom" />
/**
 * The PLO view of the range viewer in Chromium against the real app on the fixture packs (plo at 100bb,
 * 16,432 classes): every figure on the page is checked against the API's /node for the same request, with
 * the categories recomputed here from the class names (an oracle written apart from the page's code).
 */

import type { Node } from "@ranges/schema";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_AVAILABLE, layoutShift, siteInBrowser, watchPage } from "./chromium.js";

const site = siteInBrowser();
let key = "";

beforeAll(async () => {
  if (!BROWSER_AVAILABLE) return;
  key = (await site.server.access.createKey({ name: "plo-browser" })).key;
});

async function apiNode(history: string): Promise<Node> {
  const q = new URLSearchParams({ stack: "100", history });
  const res = await fetch(`${site.server.base}/api/v1/ranges/plo/node?${q}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Node;
}

const pct = (f: number) => `${(Math.round(f * 1000) / 10).toFixed(1)}%`;

/** Suit groups of a class name, e.g. (AK)QJ -> ["AK", "Q", "J"]. */
const groupsOf = (name: string): string[] =>
  name.match(/\([^)]+\)|[^()]/g)!.map((g) => g.replace(/[()]/g, ""));

/** Concrete hands of a class: suits for its groups, over the orderings of identical groups. */
function handsOf(name: string): number {
  const g = groupsOf(name);
  let ways = [4, 12, 24, 24][g.length - 1]!;
  const seen: Record<string, number> = {};
  for (const x of g) seen[x] = (seen[x] ?? 0) + 1;
  for (const m of Object.values(seen)) for (let f = 2; f <= m; f++) ways /= f;
  return ways;
}

const SUIT_ORACLE: Record<string, (name: string) => boolean> = {
  ds: (n) => groupsOf(n).filter((g) => g.length === 2).length === 2,
  ss: (n) => groupsOf(n).length === 3,
  rb: (n) => groupsOf(n).length === 4,
  three: (n) => groupsOf(n).some((g) => g.length === 3),
  mono: (n) => groupsOf(n).length === 1,
};
const ranks = (n: string) => n.replace(/[()]/g, "");
const SHAPE_ORACLE: Record<string, (name: string) => boolean> = {
  aa: (n) => (ranks(n).match(/A/g) ?? []).length >= 2,
  pair: (n) => (ranks(n).match(/A/g) ?? []).length < 2 && new Set(ranks(n)).size < 4,
  sa: (n) => groupsOf(n).some((g) => g.length > 1 && g.includes("A")),
};

/** Every class the API names at the node (an omitted weight is 0, an unscored class has no EV). */
function allNames(node: Node): string[] {
  const names = new Set<string>();
  for (const a of node.actions) for (const k of Object.keys(a.evs)) names.add(k);
  for (const a of node.actions) for (const k of Object.keys(a.weights)) names.add(k);
  return [...names];
}

/** Per category: hands and combos per action, summed over the API's classes. */
function oracle(node: Node, test: (name: string) => boolean): { hands: number; combos: number[] } {
  const names = allNames(node);
  expect(names).toHaveLength(16_432);
  const combos = node.actions.map(() => 0);
  let hands = 0;
  for (const n of names) {
    if (!test(n)) continue;
    hands += handsOf(n);
    node.actions.forEach((a, i) => {
      combos[i]! += (a.weights[n] ?? 0) * handsOf(n);
    });
  }
  return { hands, combos };
}

async function waitForPlo(page: Page, history: string): Promise<void> {
  await page.waitForFunction(
    (h) =>
      document.querySelector('[data-testid="history"]')?.textContent === h &&
      document.querySelector("main")?.getAttribute("aria-busy") === "false" &&
      document.querySelector("tr[data-class]") !== null &&
      document.querySelector(".plo-area.dim") === null,
    history,
    { timeout: 90_000 },
  );
}

async function withKey(page: Page): Promise<void> {
  await page.addInitScript((k) => window.localStorage.setItem("ranges.viewerKey", k), key);
}

async function categories(page: Page) {
  return page.$$eval("button.category", (bs) =>
    bs.map((b) => ({
      id: b.getAttribute("data-cat")!,
      hands: Number(b.getAttribute("data-hands")),
      combos: JSON.parse(b.getAttribute("data-combos")!) as number[],
      shares: b.querySelector('[data-testid="cat-shares"]')!.textContent,
    })),
  );
}

async function listRows(page: Page) {
  return page.$$eval("tr[data-class]", (trs) =>
    trs.map((tr) => ({
      name: tr.getAttribute("data-class")!,
      freqs: JSON.parse(tr.getAttribute("data-freqs")!) as number[],
      evs: JSON.parse(tr.getAttribute("data-evs")!) as (number | null)[],
      hands: Number(tr.querySelector("td")!.textContent),
      texts: Array.from(tr.querySelectorAll('[data-testid="row-action"]')).map((td) => ({
        freq: td.querySelector(".freq")!.textContent,
        ev: td.querySelector(".ev")!.textContent,
      })),
    })),
  );
}

describe.skipIf(!BROWSER_AVAILABLE)("PLO in the range viewer", () => {
  it("shows the API's PLO node: action shares, categories, the class list; search, sort and the path", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = await watchPage(page);
    await withKey(page);
    await page.goto(`${site.server.base}/?game=plo&stack=100&history=UTG`);
    await waitForPlo(page, "UTG");
    expect(await page.inputValue("select >> nth=0")).toBe("plo");
    const node = await apiNode("UTG");

    // Whole range: combos and share per action, as the API counts them.
    const total = node.actions.reduce((s, a) => s + a.combos, 0);
    for (const a of node.actions) {
      expect(await page.textContent(`[data-testid="combos-${a.action}"]`)).toBe(
        `${a.combos.toFixed(1)} combos · ${pct(a.combos / total)}`,
      );
    }

    // Categories: suit structure is a partition whose combos add up to the API's per action; each shown
    // figure equals the oracle's.
    const cats = await categories(page);
    const byId = Object.fromEntries(cats.map((c) => [c.id, c]));
    for (const [id, test] of Object.entries({ ...SUIT_ORACLE, ...SHAPE_ORACLE })) {
      const want = oracle(node, test);
      const got = byId[id]!;
      expect(got.hands, id).toBe(want.hands);
      got.combos.forEach((c, i) => {
        expect(c, `${id} ${i}`).toBeCloseTo(want.combos[i]!, 6);
      });
      const sum = want.combos.reduce((s, x) => s + x, 0);
      expect(got.shares).toBe(
        node.actions.map((a, i) => `${a.action} ${pct(want.combos[i]! / sum)}`).join(" · "),
      );
    }
    const suitIds = Object.keys(SUIT_ORACLE);
    const shapeIds = ["aa", "pair", "broadway", "rd0", "rd1", "rd2", "other"];
    for (const ids of [suitIds, shapeIds]) {
      expect(ids.reduce((s, id) => s + byId[id]!.hands, 0)).toBe(270_725);
      node.actions.forEach((a, i) => {
        expect(ids.reduce((s, id) => s + byId[id]!.combos[i]!, 0)).toBeCloseTo(a.combos, 1);
      });
    }

    // The list's first page: the API's frequency and EV per action of each class.
    const checkRows = async (n: Node) => {
      const rows = await listRows(page);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r.hands, r.name).toBe(handsOf(r.name));
        n.actions.forEach((a, i) => {
          expect(r.freqs[i], `${r.name} ${a.action}`).toBe(a.weights[r.name] ?? 0);
          expect(r.evs[i], `${r.name} ${a.action}`).toBe(a.evs[r.name] ?? null);
          expect(r.texts[i]!.freq).toBe(pct(a.weights[r.name] ?? 0));
          const ev = a.evs[r.name];
          expect(r.texts[i]!.ev).toBe(ev === undefined ? "–" : ev.toFixed(3));
        });
      }
      return rows;
    };
    expect(await checkRows(node)).toHaveLength(50);
    expect(await page.textContent('[data-testid="page"]')).toBe("page 1 of 329");

    // Search: four cards find their class; the spec's notation too; a pattern lists every match.
    await page.fill('input[name="class-search"]', "AsKsQhJh");
    await page.waitForFunction(() => document.querySelectorAll("tr[data-class]").length === 1);
    expect((await checkRows(node)).map((r) => r.name)).toEqual(["(AK)(QJ)"]);
    await page.fill('input[name="class-search"]', "(qj)(ak)");
    await page.waitForFunction(
      () => document.querySelector("tr[data-class]")?.getAttribute("data-class") === "(AK)(QJ)",
    );
    await page.fill('input[name="class-search"]', "AAxx");
    await page.waitForFunction(() => document.querySelectorAll("tr[data-class]").length === 50);
    const aaClasses = allNames(node).filter(SHAPE_ORACLE.aa!);
    expect(await page.textContent('[data-testid="search-note"]')).toBe(
      `${aaClasses.length.toLocaleString("en-US")} classes`,
    );
    await page.fill('input[name="class-search"]', "AK(Q");
    await page.waitForSelector('[data-testid="search-note"] .error');
    await page.fill('input[name="class-search"]', "");

    // Sort by the Open EV, highest first: the first row holds the API's highest Open EV.
    const open = node.actions.findIndex((a) => a.action === "Open");
    await page.click(`button[data-sort="ev:${open}"]`);
    await page.waitForSelector(`th[aria-sort="descending"] button[data-sort="ev:${open}"]`);
    const sorted = await checkRows(node);
    const best = Math.max(...Object.values(node.actions[open]!.evs));
    expect(best).toBeGreaterThan(-Infinity);
    expect(sorted[0]!.evs[open]).toBe(best);
    for (let i = 1; i < sorted.length; i++) {
      expect(sorted[i]!.evs[open]!).toBeLessThanOrEqual(sorted[i - 1]!.evs[open]!);
    }

    // A category filters the list: double-suited classes only.
    await page.click('button.category[data-cat="ds"]');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll("tr[data-class]")).every((tr) =>
        /^\(..\)\(..\)$/.test(tr.getAttribute("data-class")!),
      ),
    );
    const ds = allNames(node).filter(SUIT_ORACLE.ds!);
    expect(await page.textContent('[data-testid="search-note"]')).toContain(
      `${ds.length.toLocaleString("en-US")} classes`,
    );
    await page.click('button.category[data-cat="ds"]');

    // Keyboard: the list is one tab stop; arrows move and the details follow.
    await page.click('button[data-sort="order"]');
    await page.focus('button.class-name[data-row="0"]');
    await page.keyboard.press("ArrowDown");
    const second = await page.evaluate(() => document.activeElement?.textContent);
    expect(second).toBe((await listRows(page))[1]!.name);
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain(second!);
    expect(await page.$$eval('button.class-name[tabindex="0"]', (b) => b.length)).toBe(1);
    // The details of that class: frequency, combos and EV per action, as the API gives them.
    const detail = await page.$$eval(".details tbody tr", (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent)),
    );
    expect(detail).toEqual(
      node.actions.map((a) => {
        const f = a.weights[second!] ?? 0;
        const ev = a.evs[second!];
        return [pct(f), (f * handsOf(second!)).toFixed(2), ev === undefined ? "–" : ev.toFixed(3)];
      }),
    );

    // An action walks the path: UTG folds, HJ's node, with the API's numbers.
    await page.click('a.action:has-text("Fold")');
    await waitForPlo(page, "UTG_Fold_HJ");
    expect(new URL(page.url()).searchParams.get("history")).toBe("UTG_Fold_HJ");
    const hj = await apiNode("UTG_Fold_HJ");
    await checkRows(hj);
    for (const a of hj.actions) {
      expect(await page.textContent(`[data-testid="combos-${a.action}"]`)).toContain(
        `${a.combos.toFixed(1)} combos`,
      );
    }
    await page.goBack();
    await waitForPlo(page, "UTG");

    const { cls, shifts } = await layoutShift(page);
    expect(cls, shifts.join("; ")).toBeLessThanOrEqual(0.02);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("fits a phone: nothing scrolls sideways, a tap shows a class", async () => {
    const page = await site.browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const watch = await watchPage(page);
    await withKey(page);
    await page.goto(`${site.server.base}/?game=plo&stack=100&history=UTG_Fold_HJ`);
    await waitForPlo(page, "UTG_Fold_HJ");
    const widths = await page.evaluate(() => ({
      doc: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    expect(widths.view).toBe(390);
    expect(widths.doc).toBeLessThanOrEqual(390);
    const name = (await listRows(page))[2]!.name;
    await page.tap('button.class-name[data-row="2"]');
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain(name);
    const { cls, shifts } = await layoutShift(page);
    expect(cls, shifts.join("; ")).toBeLessThanOrEqual(0.02);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("asks for a key, and says when the URL's game is not there instead of showing another", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.server.base}/?game=plo&stack=100&history=UTG`);
    const alert = page.locator('[role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain("needs an API key");
    expect(await page.isVisible('input[type="password"]')).toBe(true);
    expect(await page.inputValue("select >> nth=0")).toBe("plo");

    await page.goto(`${site.server.base}/?game=plo7&stack=100&history=UTG`);
    await page.waitForSelector('[data-testid="notice"]');
    expect(await page.textContent('[data-testid="notice"]')).toContain('no game "plo7"');
    await page.close();
  });
});
