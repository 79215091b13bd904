/// <reference lib="dom" />
/**
 * The postflop board browser (/postflop) in Chromium against the real app on the committed postflop packs
 * (data/postflop): every frequency, EV, combo weight and equity on the page is checked against the API's
 * answer to the same request; the other player's range at the flop root against the pack's own range
 * listing; turn and river are dealt and solved on demand by the API.
 */

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PostflopPacks } from "@ranges/postflop";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_AVAILABLE, layoutShift, siteInBrowser, watchPage } from "./chromium.js";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../data/postflop");
const site = siteInBrowser({ postflop: () => PostflopPacks.open({ dir: DATA, refreshMs: 0 }) });
let key = "";

beforeAll(async () => {
  if (!BROWSER_AVAILABLE) return;
  key = (await site.server.access.createKey({ name: "postflop-browser" })).key;
});

interface Exploitability {
  exploitabilityPct: number;
  exploitabilityNote: string;
}
interface Env {
  coverage: { status: string };
  context: {
    provenance: Exploitability;
    solve: Exploitability & { street: string };
    actor: string;
    actorSeat: string;
    nodePotBb: number;
  };
  result: Record<string, unknown> & { reason?: string };
  warnings: string[];
}

async function api(path: string): Promise<Env> {
  const res = await fetch(`${site.server.base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Env;
}
// Spaces in action labels go as %20: the API reads "+" as itself.
const q = (o: Record<string, string>) => new URLSearchParams(o).toString().replace(/\+/g, "%20");
const node = (pack: string, board: string, path: string) =>
  api(`/api/v1/postflop/${pack}/node?${q({ board, path })}`);
const range = (pack: string, board: string, path: string, action?: string) =>
  api(`/api/v1/postflop/${pack}/range?${q({ board, path, ...(action ? { action } : {}) })}`);

const pct = (f: number) => `${(Math.round(f * 1000) / 10).toFixed(1)}%`;
const RANKS = "AKQJT98765432";
const classOf = (combo: string) => {
  const [a, s1, b, s2] = [...combo] as [string, string, string, string];
  const [hi, lo] = RANKS.indexOf(a) <= RANKS.indexOf(b) ? [a, b] : [b, a];
  return hi === lo ? `${hi}${lo}` : `${hi}${lo}${s1 === s2 ? "s" : "o"}`;
};

async function waitForNode(page: Page, path: string): Promise<void> {
  await page.waitForFunction(
    (p) =>
      document.querySelector('[data-testid="path"]')?.textContent === p &&
      document.querySelector("main")?.getAttribute("aria-busy") === "false" &&
      document.querySelector('[data-testid="pf-action-0"]') !== null &&
      document.querySelector('[data-testid="range-other"] [data-weight]') !== null,
    path,
    { timeout: 120_000 },
  );
}

async function withKey(page: Page): Promise<void> {
  await page.addInitScript((k) => window.localStorage.setItem("ranges.viewerKey", k), key);
}

/** The page's actions, grid and actor range against the API's node. */
async function expectNode(page: Page, env: Env): Promise<void> {
  const actions = env.result.actions as { action: string; frequency: number; evBb: number | null }[];
  for (const [i, a] of actions.entries()) {
    const el = page.locator(`[data-testid="pf-action-${i}"]`);
    expect(Number(await el.getAttribute("data-freq"))).toBe(a.frequency);
    expect(await el.textContent()).toBe(`${pct(a.frequency)} · ${a.evBb === null ? "–" : a.evBb.toFixed(3)}`);
  }
  const classes = env.result.classes as {
    hand: string;
    weight: number;
    frequencies: Record<string, number>;
  }[];
  const cells = await page.$$eval("button.cell[data-weight]", (bs) =>
    bs.map((b) => ({
      hand: b.getAttribute("data-hand")!,
      weight: Number(b.getAttribute("data-weight")),
      freqs: JSON.parse(b.getAttribute("data-freqs")!),
    })),
  );
  expect(cells).toHaveLength(classes.length);
  const byHand = new Map(classes.map((c) => [c.hand, c]));
  for (const c of cells) {
    expect(c.weight, c.hand).toBe(byHand.get(c.hand)!.weight);
    expect(c.freqs, c.hand).toEqual(byHand.get(c.hand)!.frequencies);
  }
  const actor = await page.$$eval('[data-testid="range-actor"] [data-weight]', (s) =>
    s.map((x) => [x.getAttribute("data-hand")!, Number(x.getAttribute("data-weight"))] as const),
  );
  expect(new Map(actor)).toEqual(new Map(classes.map((c) => [c.hand, c.weight])));
}

async function otherWeights(page: Page): Promise<Map<string, number>> {
  const w = await page.$$eval('[data-testid="range-other"] [data-weight]', (s) =>
    s.map((x) => [x.getAttribute("data-hand")!, Number(x.getAttribute("data-weight"))] as const),
  );
  return new Map(w);
}

describe.skipIf(!BROWSER_AVAILABLE)("postflop board browser", () => {
  it("opens a deep link and shows the API's node: actions, grid, a class's combos, both ranges", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = await watchPage(page);
    await withKey(page);
    const [pack, board] = ["srp-btn-bb-100bb", "AsQh6d"];
    await page.goto(`${site.server.base}/postflop?pack=${pack}&board=${board}&path=`);
    await waitForNode(page, "");
    const root = await node(pack, board, "");
    await expectNode(page, root);
    expect(await page.textContent(".actions h2")).toBe(
      `${root.context.actorSeat} to act (${root.context.actor.toUpperCase()}, flop, pot ${root.context.nodePotBb}bb)`,
    );
    expect(await page.textContent('[data-testid="exploitability"]')).toBe(
      `${root.context.provenance.exploitabilityPct}%`,
    );
    expect(await page.textContent('[data-testid="solve"]')).toContain(
      root.context.provenance.exploitabilityNote,
    );

    // Hover a class: its weight and EV, then each combo's reach, frequencies, EV and equity.
    const combos = (await range(pack, board, "")).result.combos as {
      combo: string;
      reach: number;
      frequencies: Record<string, number>;
      evBb: number | null;
      equity: number | null;
    }[];
    const cls = (root.result.classes as { hand: string; weight: number; evBb: number }[]).find(
      (c) => c.hand === "KQo",
    )!;
    await page.hover('button.cell[data-hand="KQo"]');
    await page.waitForSelector('[data-testid="detail-combos"]');
    expect(await page.textContent('[data-testid="detail-hand"]')).toBe(
      `KQo ${cls.weight} combos · EV ${cls.evBb.toFixed(3)}bb`,
    );
    const rows = await page.$$eval('[data-testid="detail-combos"] tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)),
    );
    const mine = combos.filter((c) => classOf(c.combo) === "KQo");
    expect(rows).toEqual(
      mine.map((c) => [
        c.combo,
        c.reach.toFixed(4),
        ...(root.result.actions as { action: string }[]).map((a) => pct(c.frequencies[a.action] ?? 0)),
        c.evBb === null ? "–" : c.evBb.toFixed(3),
        c.equity === null ? "–" : pct(c.equity),
      ]),
    );

    // Tap a combo: its frequency and EV per action, as the node with that combo gives them.
    const first = mine[0]!.combo;
    await page.click(`[data-testid="detail-combos"] tr[data-combo="${first}"] button`);
    await page.waitForSelector('[data-testid="combo-evs"] [data-action]');
    const one = (await api(`/api/v1/postflop/${pack}/node?${q({ board, path: "", combo: first })}`)).result
      .combo as { combo: string; strategy: { action: string; frequency: number; evBb: number | null }[] };
    expect(await page.textContent('[data-testid="combo-evs"]')).toBe(
      `${one.combo}: ${one.strategy
        .map((x) => `${x.action} ${pct(x.frequency)}, EV ${x.evBb === null ? "–" : x.evBb.toFixed(3)}bb`)
        .join(" · ")}`,
    );

    // The other player (BTN, not yet acted) holds its whole range: the pack's listing per class times the
    // combos the board leaves.
    const listing = (await (await fetch(`${site.server.base}/api/v1/postflop/packs`)).json()) as Env;
    const ip = (listing.result.packs as { pack: string; ranges: { ip: string } }[]).find(
      (p) => p.pack === pack,
    )!.ranges.ip;
    const other = await otherWeights(page);
    const dead = ["As", "Qh", "6d"];
    const suits = "shdc";
    for (const entry of ip.split(",")) {
      // A class the line plays in full is listed without a weight.
      const [hand, w = "1"] = entry.split(":") as [string, string?];
      let live = 0;
      for (const s1 of suits)
        for (const s2 of suits) {
          const [a, b] = [`${hand[0]}${s1}`, `${hand[1]}${s2}`];
          if (a === b || dead.includes(a) || dead.includes(b)) continue;
          const suited = s1 === s2;
          if (hand.length === 2 ? s1 < s2 : hand.endsWith("s") === suited) live++;
        }
      if (live === 0) continue;
      expect(other.get(hand)!, hand).toBeCloseTo(Number(w) * live, 2);
    }

    // The class picked in the grid (KQo) shows its weight in both ranges.
    expect(await page.textContent('[data-testid="range-other-pick"]')).toBe(
      `KQo: ${(other.get("KQo") ?? 0).toFixed(2)} combos`,
    );
    expect(await page.textContent('[data-testid="range-actor-pick"]')).toBe(
      `KQo: ${cls.weight.toFixed(2)} combos`,
    );

    // Keyboard: the grid is one tab stop; arrows move the focus and the details follow.
    await page.focus('button.cell[data-hand="AA"]');
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-hand"))).toBe("KK");
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain("KK");
    expect(await page.$$eval('button.cell[tabindex="0"]', (b) => b.length)).toBe(1);

    // Walk the path: BB checks; BTN's node, and BB's range is its combos that checked.
    await page.click('a.action:has-text("check")');
    await waitForNode(page, "check");
    expect(new URL(page.url()).searchParams.get("path")).toBe("check");
    await expectNode(page, await node(pack, board, "check"));
    const checked = (await range(pack, board, "", "check")).result.combos as {
      combo: string;
      weightAfter: number;
    }[];
    const want = new Map<string, number>();
    for (const c of checked) want.set(classOf(c.combo), (want.get(classOf(c.combo)) ?? 0) + c.weightAfter);
    const got = await otherWeights(page);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [h, w] of want) expect(got.get(h)!, h).toBeCloseTo(w, 6);

    // BTN bets (an action label with a space): BB faces the bet, and BTN's range is its betting combos.
    const bet = (await node(pack, board, "check")).result.actions as { action: string; kind: string }[];
    const betLabel = bet.find((a) => a.kind === "bet")!.action;
    expect(betLabel).toContain(" ");
    await page.click(`a.action:has-text("${betLabel}")`);
    await waitForNode(page, `check,${betLabel}`);
    expect(new URL(page.url()).searchParams.get("path")).toBe(`check,${betLabel}`);
    await expectNode(page, await node(pack, board, `check,${betLabel}`));
    const bets = (await range(pack, board, "check", betLabel)).result.combos as {
      combo: string;
      weightAfter: number;
    }[];
    const betting = new Map<string, number>();
    for (const c of bets) betting.set(classOf(c.combo), (betting.get(classOf(c.combo)) ?? 0) + c.weightAfter);
    const shown = await otherWeights(page);
    for (const [h, w] of betting) expect(shown.get(h)!, h).toBeCloseTo(w, 6);

    // The other tree of the line keeps the board.
    await page.selectOption('select[name="tree"]', `${pack}-flop33`);
    await waitForNode(page, "");
    expect(new URL(page.url()).searchParams.get("pack")).toBe(`${pack}-flop33`);
    await expectNode(page, await node(`${pack}-flop33`, board, ""));

    const { cls: shift, shifts } = await layoutShift(page);
    expect(shift, shifts.join("; ")).toBeLessThanOrEqual(0.02);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("deals a turn and a river: the wait for the on-demand solve, then its exploitability as the API labels it", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = await watchPage(page);
    await withKey(page);
    await page.addInitScript(() => {
      const w = window as unknown as { solving: string[] };
      w.solving = [];
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of Array.from(r.addedNodes)) {
            const el =
              n instanceof Element
                ? n.matches('[data-testid="solving"]')
                  ? n
                  : n.querySelector('[data-testid="solving"]')
                : null;
            if (el) w.solving.push(el.textContent ?? "");
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const [pack, board] = ["3bp-bb-btn-100bb", "Ks7h4d"];
    await page.goto(`${site.server.base}/postflop?pack=${pack}&board=${board}&path=check`);
    await waitForNode(page, "check");
    await page.click('button.action:has-text("check")');
    await page.click('.actions button[data-card="2c"]');
    // The wait was shown (recorded as it was put on the page, however short the solve).
    await page.waitForFunction(() => (window as unknown as { solving: string[] }).solving.length > 0);
    const seen = await page.evaluate(() => (window as unknown as { solving: string[] }).solving);
    expect(seen[0]).toMatch(/^Solving the turn on demand… \d+ s$/);
    await waitForNode(page, "check,check,2c");
    const turn = await node(pack, board, "check,check,2c");
    expect(turn.context.solve.street).toBe("turn");
    await expectNode(page, turn);
    expect(await page.textContent('[data-testid="exploitability"]')).toBe(
      `${turn.context.solve.exploitabilityPct}%`,
    );
    expect(await page.textContent('[data-testid="solve"]')).toContain(turn.context.solve.exploitabilityNote);
    expect(await page.textContent(".pathbar ol")).toContain("Turn 2c");

    // BB checks the turn, BTN checks back, the river.
    await page.click('a.action:has-text("check")');
    await waitForNode(page, "check,check,2c,check");
    await page.click('button.action:has-text("check")');
    await page.click('.actions button[data-card="9h"]');
    await waitForNode(page, "check,check,2c,check,check,9h");
    const river = await node(pack, board, "check,check,2c,check,check,9h");
    expect(river.context.solve.street).toBe("river");
    await expectNode(page, river);
    expect(await page.textContent('[data-testid="exploitability"]')).toBe(
      `${river.context.solve.exploitabilityPct}%`,
    );
    // The other player's range on the river: the BTN combos that checked the turn back, none holding 9h.
    const backs = (await range(pack, board, "check,check,2c,check", "check")).result.combos as {
      combo: string;
      weightAfter: number;
    }[];
    const other = await otherWeights(page);
    const want = new Map<string, number>();
    for (const c of backs.filter((x) => !x.combo.includes("9h"))) {
      want.set(classOf(c.combo), (want.get(classOf(c.combo)) ?? 0) + c.weightAfter);
    }
    for (const [h, w] of want) expect(other.get(h)!, h).toBeCloseTo(w, 6);
    const { cls: shift, shifts } = await layoutShift(page);
    expect(shift, shifts.join("; ")).toBeLessThanOrEqual(0.02);

    // Facing an all-in on the flop: the call deals no turn (no decision is left), as the API's tree says.
    const steps: string[] = [];
    for (const kind of ["bet", "raise", "allin"]) {
      const actions = (await node(pack, board, steps.join(","))).result.actions as {
        action: string;
        kind: string;
      }[];
      steps.push(actions.find((a) => a.kind === kind)!.action);
    }
    await page.goto(
      `${site.server.base}/postflop?pack=${pack}&board=${board}&path=${encodeURIComponent(steps.join(","))}`,
    );
    await waitForNode(page, steps.join(","));
    await expectNode(page, await node(pack, board, steps.join(",")));
    expect(await page.textContent('.actions li:has-text("call")')).toContain("all-in called");
    expect(await page.isVisible('.actions button.action:has-text("call")')).toBe(false);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("filters the solved flops by texture, and names the nearest solved flops for one that is not", async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = await watchPage(page);
    await withKey(page);
    const pack = "srp-btn-bb-100bb";
    await page.goto(`${site.server.base}/postflop?pack=${pack}&board=AsQh6d&path=`);
    await waitForNode(page, "");
    const report = await api(`/api/v1/postflop/${pack}/report?path=`);
    const boards = report.result.boards as { board: string; texture: Record<string, string> }[];
    await page.waitForFunction(
      () => !document.querySelector('select[name="suitTexture"]')?.hasAttribute("disabled"),
    );
    await page.selectOption('select[name="suitTexture"]', "monotone");
    const mono = boards.filter((b) => b.texture.suitTexture === "monotone").map((b) => b.board);
    const options = await page.$$eval('select[name="board"] option', (o) =>
      o.map((x) => (x as HTMLOptionElement).value),
    );
    // The current board stays listed first when the filter leaves it out.
    expect(options.filter((b) => b !== "AsQh6d")).toEqual(mono);
    expect(await page.textContent('[data-testid="board-count"]')).toBe(`${mono.length} of 30 solved flops`);
    await page.selectOption('select[name="board"]', mono[0]!);
    await waitForNode(page, "");
    expect(new URL(page.url()).searchParams.get("board")).toBe(mono[0]);

    // The card picker: As Qh 7d is not solved; the API's nearest solved flops are offered.
    await page.click(".flop-picker summary");
    for (const c of ["As", "Qh", "7d"]) await page.click(`.flop-picker button[data-card="${c}"]`);
    expect(await page.inputValue('input[name="flop"]')).toBe("AsQh7d");
    await page.click('.flop-picker button[type="submit"]');
    await page.waitForSelector('[data-testid="unsolved"]');
    const unsolved = await node(pack, "AsQh7d", "");
    expect(unsolved.coverage.status).toBe("unsupported");
    expect(await page.textContent('[data-testid="unsolved"] p')).toBe(unsolved.result.reason!);
    const near = await page.$$eval('[data-testid="unsolved"] a[data-board]', (a) =>
      a.map((x) => x.getAttribute("data-board")),
    );
    expect(near.length).toBeGreaterThan(0);
    for (const b of near) expect(unsolved.result.reason).toContain(b!);
    await page.click(`[data-testid="unsolved"] a[data-board="${near[0]}"]`);
    await waitForNode(page, "");
    expect(new URL(page.url()).searchParams.get("board")).toBe(near[0]);
    await expectNode(page, await node(pack, near[0]!, ""));
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it("fits a phone, and asks for a key without one", async () => {
    const page = await site.browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const watch = await watchPage(page);
    await withKey(page);
    await page.goto(`${site.server.base}/postflop?pack=3bp-bb-btn-100bb&board=KsJh5d&path=`);
    await waitForNode(page, "");
    const widths = await page.evaluate(() => ({
      doc: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    expect(widths.view).toBe(390);
    expect(widths.doc).toBeLessThanOrEqual(390);
    await expectNode(page, await node("3bp-bb-btn-100bb", "KsJh5d", ""));
    const hand = await page.getAttribute("button.cell[data-weight] >> nth=0", "data-hand");
    await page.tap(`button.cell[data-hand="${hand}"]`);
    expect(await page.textContent('[data-testid="detail-hand"]')).toContain(hand!);
    const { cls: shift, shifts } = await layoutShift(page);
    expect(shift, shifts.join("; ")).toBeLessThanOrEqual(0.02);
    expect(watch.errors).toEqual([]);
    await page.close();

    const bare = await site.browser.newPage();
    // A pack the server lacks is said, not silently replaced.
    await bare.goto(`${site.server.base}/postflop?pack=hu-nope&board=KsJh5d&path=`);
    await bare.waitForSelector('[data-testid="notice"]', { timeout: 60_000 });
    expect(await bare.textContent('[data-testid="notice"]')).toContain('no postflop pack "hu-nope"');

    await bare.goto(`${site.server.base}/postflop?pack=3bp-bb-btn-100bb&board=KsJh5d&path=`);
    const alert = bare.locator('[role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain("need an API key");
    expect(await bare.isVisible('input[type="password"]')).toBe(true);
    await bare.close();
  });
});
