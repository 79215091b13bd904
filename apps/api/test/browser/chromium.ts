/**
 * Debian's Chromium driven by playwright-core (no browser download: `.ci/run` installs the `chromium`
 * package when it is absent). CHROMIUM_PATH overrides /usr/bin/chromium. Without a browser the browser tests
 * are skipped with a note on stderr; with REQUIRE_BROWSER=1 (CI) that is an error instead.
 */

import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
