/**
 * Debian's Chromium driven by playwright-core (no browser download: `.ci/run` installs the `chromium`
 * package when it is absent). CHROMIUM_PATH overrides /usr/bin/chromium. Without a browser the browser tests
 * are skipped with a note on stderr; with REQUIRE_BROWSER=1 (CI) that is an error instead.
 */

import { existsSync } from "node:fs";
import { webRoot } from "@ranges/web";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { fixturePacksDir, start, type TestServer } from "../helpers.js";

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
 * For a browser test file: registers hooks that start the app on the fixture packs with the web build at
 * `/`, and Chromium, and close both after the file. The fields are set once `beforeAll` has run (nothing is
 * started without a browser).
 */
export function siteInBrowser(): { readonly server: TestServer; readonly browser: Browser } {
  const site = {} as { server: TestServer; browser: Browser };
  let removePacks: (() => void) | undefined;
  beforeAll(async () => {
    if (!BROWSER_AVAILABLE) return;
    const packs = await fixturePacksDir(false);
    removePacks = packs.remove;
    site.server = await start({ packsDir: packs.dir, webRoot });
    site.browser = await launchChromium();
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
    removePacks?.();
  });
  return site;
}
