/**
 * Debian's Chromium driven by playwright-core (no browser download: `.ci/run` installs the `chromium`
 * package when it is absent). CHROMIUM_PATH overrides /usr/bin/chromium. Without a browser the browser tests
 * are skipped with a note on stderr; with REQUIRE_BROWSER=1 (CI) that is an error instead.
 */

import { existsSync } from "node:fs";
import { webRoot } from "@ranges/web";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { fixturePacksDir, type StartOptions, start, type TestServer } from "../helpers.js";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const BROWSER_AVAILABLE = existsSync(CHROMIUM);

if (!BROWSER_AVAILABLE) {
  const line = `No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are SKIPPED.`;
  if (process.env.REQUIRE_BROWSER === "1") throw new Error(`${line} REQUIRE_BROWSER=1 makes that an error.`);
  process.stderr.write(`\n*** ${line}\n\n`);
}

/**
 * Headless Chromium (playwright gives it a fresh temporary profile); the flags keep it off the network
 * beyond the pages the test opens.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 120_000,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * For a browser test file: registers hooks that start the app on the fixture packs (and, given `postflop`,
 * the postflop packs it opens) with the web build at `/`, and Chromium, and close both after the file.
 * The fields are set once `beforeAll` has run (nothing is started without a browser).
 */
export function siteInBrowser(options: { postflop?: () => StartOptions["postflop"] } = {}): {
  readonly server: TestServer;
  readonly browser: Browser;
} {
  const site = {} as { server: TestServer; browser: Browser };
  let removePacks: (() => void) | undefined;
  beforeAll(async () => {
    if (!BROWSER_AVAILABLE) return;
    const packs = await fixturePacksDir(false);
    removePacks = packs.remove;
    const postflop = options.postflop?.();
    site.server = await start({ packsDir: packs.dir, webRoot, ...(postflop ? { postflop } : {}) });
    site.browser = await launchChromium();
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
    removePacks?.();
  });
  return site;
}

/**
 * Watches a page from its first paint: `window.cls` sums Chromium's layout-shift entries not caused by
 * input (`window.shifts` says what moved), and `errors` collects console errors and uncaught exceptions.
 */
export async function watchPage(page: Page): Promise<{ errors: string[] }> {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { cls: number; shifts: string[] };
    w.cls = 0;
    w.shifts = [];
    new PerformanceObserver((list) => {
      type Shift = { value: number; hadRecentInput: boolean; sources: { node?: Element }[] };
      for (const e of list.getEntries() as unknown as Shift[]) {
        if (e.hadRecentInput) continue;
        w.cls += e.value;
        const what = e.sources.map((s) => `${s.node?.nodeName}.${s.node?.className ?? ""}`).join(" ");
        w.shifts.push(`${e.value.toFixed(4)} ${what}`);
      }
    }).observe({ type: "layout-shift", buffered: true } as PerformanceObserverInit);
  });
  return { errors };
}

/** The layout shift summed so far on a watched page, and what moved. */
export function layoutShift(page: Page): Promise<{ cls: number; shifts: string[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { cls: number; shifts: string[] };
    return { cls: w.cls, shifts: w.shifts };
  });
}
