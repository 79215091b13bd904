/**
 * The examples of the READMEs, read out of their text (so a README edit that breaks one fails its test):
 * the reads (`curl` lines, plain `GET /api/...` paths, a package's `fetch`), the web site's addresses and deep
 * links, the GET rows of apps/api's route table, the `pnpm ranges` commands, and the MCP examples (the SDK
 * snippet, the client entry, the Inspector CLI calls, the OAuth challenge, the upload `curl`).
 */

import { readFileSync } from "node:fs";
import { type GameId, isKeyless } from "@ranges/core";

export const ROOT = new URL("../../../", import.meta.url);
/** The origin the READMEs write; the tests put the test server's in its place. */
export const SITE = "http://localhost:3000";
/** The READMEs that show requests a user runs against the service (apps/web has none of its own). */
export const READMES = [
  "README.md",
  "apps/api/README.md",
  "apps/mcp/README.md",
  "packages/schema/README.md",
] as const;

/** A README's text with shell continuation lines joined. */
export function readme(file: string): string {
  return readFileSync(new URL(file, ROOT), "utf8").replace(/\\\n\s*/g, " ");
}

/** The fenced code blocks of a README, with their language. */
export function blocks(file: string): { lang: string; text: string }[] {
  return [...readme(file).matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    text: m[2]!,
  }));
}

export interface Read {
  readonly file: string;
  /** Path and query, as written. */
  readonly path: string;
  readonly keyed: boolean;
}

/** The reads of one README: curl commands, backticked `GET /api/...` paths, and `fetch` calls. */
export function readsOf(file: string): Read[] {
  const text = readme(file);
  const out: Read[] = [];
  for (const m of text.matchAll(/^curl ([^\n]*)$/gm)) {
    const line = m[1]!;
    if (/--data|-X |POST|DELETE/.test(line)) continue;
    const url = /'(http:\/\/localhost:3000[^']*)'/.exec(line)?.[1];
    if (!url) continue;
    out.push({ file, path: url.slice(SITE.length), keyed: line.includes("Bearer") });
  }
  for (const m of text.matchAll(/`GET (\/api\/[^`\s]*)`/g)) {
    const path = m[1]!;
    if (path.includes("{") || path.includes("|") || path.endsWith("...")) continue;
    // Keyed when the README says so in the rest of the sentence ("both need a key"), unless it says keyless.
    const rest = text.slice(m.index! + m[0].length).split(/\.\s/)[0]!;
    const keyed = !rest.trimStart().startsWith("(keyless)") && /needs? a key/.test(rest);
    out.push({ file, path, keyed });
  }
  // A library's own example of calling the service: fetch("https://example.com/api/...").
  for (const m of text.matchAll(/fetch\("https:\/\/example\.com(\/api\/[^"]*)"/g)) {
    out.push({ file, path: m[1]!, keyed: false });
  }
  return out;
}

export interface Page {
  readonly file: string;
  /** The page's path and query on the site. */
  readonly path: string;
  /** For a deep link, the API read the page makes for it (the viewer's node, the board browser's node). */
  readonly read?: { readonly path: string; readonly keyed: boolean };
}

/** The site's addresses (`http://localhost:3000/account`) and deep links (`/?game=...`, `/postflop?...`). */
export function pagesOf(file: string): Page[] {
  const text = readme(file);
  const out: Page[] = [];
  for (const m of text.matchAll(/http:\/\/localhost:3000(\/[\w/-]*)?/g)) {
    const path = m[1] ?? "/";
    if (path.startsWith("/api/") || path.startsWith("/.well-known/")) continue;
    if (!out.some((p) => p.path === path)) out.push({ file, path });
  }
  for (const m of text.matchAll(/`(\/(?:postflop)?\?[^`\s]+)`/g)) {
    const path = m[1]!;
    const q = new URLSearchParams(path.slice(path.indexOf("?") + 1));
    const api = new URLSearchParams();
    let read: Page["read"];
    if (path.startsWith("/postflop")) {
      for (const name of ["board", "path"]) api.set(name, q.get(name) ?? "");
      read = { path: `/api/v1/postflop/${q.get("pack")}/node?${api}`, keyed: true };
    } else {
      const game = q.get("game") ?? "";
      for (const name of ["stack", "history"]) api.set(name, q.get(name) ?? "");
      read = { path: `/api/v1/ranges/${game}/node?${api}`, keyed: !isKeyless(game as GameId, "node") };
    }
    out.push({ file, path, read });
  }
  return out;
}

export interface RouteRow {
  readonly method: string;
  /** The row's paths, relative ones resolved, `[/optional]` parts giving two paths. */
  readonly paths: string[];
  /** The Key column. */
  readonly access: string;
}

/**
 * The rows of a README's "## Routes" table. A later path in a cell continues the first one's parent when the
 * first is below an `/api/v1/` resource (`/api/v1/account/keys`, `/requests`) or has a placeholder; otherwise
 * it stands alone (`/api/v1/openapi.json`, `/healthz`).
 */
export function routesOf(file: string): RouteRow[] {
  const table = readme(file).split("## Routes")[1]?.split("\n\n")[1] ?? "";
  const rows: RouteRow[] = [];
  for (const line of table.split("\n").slice(2)) {
    const [, method, cell, access] = line.split("|").map((c) => c.trim());
    const written = [...(cell ?? "").matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]!);
    const first = written[0];
    if (!method || !first) continue;
    // Below a placeholder (`/oauth/interaction/{uid}`, `/details`) every later path is a template too.
    const nested = first.includes("{") || (first.startsWith("/api/v1/") && first.split("/").length > 4);
    const parent = first.endsWith("}") ? first : first.slice(0, first.lastIndexOf("/"));
    const paths = written
      .map((p, i) => (i > 0 && nested ? parent + p : p))
      .flatMap((p) => {
        const opt = /^(.*)\[([^\]]+)\](.*)$/.exec(p);
        return opt ? [opt[1]! + opt[3]!, opt[1]! + opt[2]! + opt[3]!] : [p];
      });
    rows.push({ method, paths, access: access ?? "" });
  }
  return rows;
}

/** Splits a command line into words; quotes group words and are removed. */
export function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

export interface CliExample {
  readonly file: string;
  /** The arguments after `pnpm ranges`, with `[optional parts]` left out. */
  readonly short: string[];
  /** The same with the optional parts written in. */
  readonly full: string[];
}

/** The `pnpm ranges ...` commands of a README: in sh blocks, and backticked in the prose. */
export function cliOf(file: string): CliExample[] {
  const lines = [
    ...blocks(file)
      .filter((b) => b.lang === "sh")
      .flatMap((b) => b.text.split("\n")),
    ...[...readme(file).matchAll(/`(pnpm ranges [^`]+)`/g)].map((m) => m[1]!),
  ];
  const out: CliExample[] = [];
  for (const line of lines) {
    const m = /^pnpm ranges (.*?)\s*(#.*)?$/.exec(line.trim());
    // `pnpm ranges keys ...` in the prose names the commands, it is not one.
    if (!m || m[1]!.endsWith("...")) continue;
    const args = m[1]!;
    out.push({
      file,
      short: words(args.replace(/\s*\[[^\]]*\]/g, "")),
      full: words(args.replace(/[[\]]/g, "")),
    });
  }
  return out;
}

export interface InspectorCall {
  readonly url: string;
  readonly method: string;
  readonly tool?: string;
  /** `--tool-arg name=value`, values as written (the Inspector converts them to the schema's types). */
  readonly args: Record<string, string>;
  readonly headers: Record<string, string>;
}

/** The MCP Inspector CLI commands of a README's sh blocks. */
export function inspectorOf(file: string): InspectorCall[] {
  const out: InspectorCall[] = [];
  for (const b of blocks(file).filter((x) => x.lang === "sh")) {
    for (const line of b.text.split("\n")) {
      const w = words(line.trim());
      if (w[0] !== "npx" || w[1] !== "@modelcontextprotocol/inspector" || w[2] !== "--cli") continue;
      const args: Record<string, string> = {};
      const headers: Record<string, string> = {};
      let method = "";
      let tool: string | undefined;
      for (let i = 4; i < w.length; i += 2) {
        const [flag, value] = [w[i]!, w[i + 1] ?? ""];
        if (flag === "--method") method = value;
        else if (flag === "--tool-name") tool = value;
        else if (flag === "--tool-arg") args[value.split("=", 1)[0]!] = value.slice(value.indexOf("=") + 1);
        else if (flag === "--header")
          headers[value.split(":", 1)[0]!] = value.slice(value.indexOf(":") + 1).trim();
        else if (flag !== "--transport")
          throw new Error(`${file}: an Inspector flag the test does not know: ${flag}`);
      }
      out.push({ url: w[3]!, method, ...(tool ? { tool } : {}), args, headers });
    }
  }
  return out;
}

/** The TypeScript SDK example: the URL it connects to and the tool call it makes. */
export function sdkCallOf(file: string): { url: string; tool: string; args: Record<string, unknown> } {
  const ts = blocks(file).find((b) => b.lang === "ts" && b.text.includes("callTool"))?.text ?? "";
  const url = /new URL\("([^"]+)"\)/.exec(ts)?.[1] ?? "";
  const call = /callTool\(\{\s*name: "([^"]+)",\s*arguments: (\{[^}]*\})/.exec(ts);
  if (!call) throw new Error(`${file}: no callTool example found`);
  // The object literal's keys are bare words; quoted, it is JSON.
  const args = JSON.parse(call[2]!.replace(/([{,]\s*)(\w+):/g, '$1"$2":')) as Record<string, unknown>;
  return { url, tool: call[1]!, args };
}

/** The client configuration entry (`mcpServers`) of a README's json blocks. */
export function clientEntryOf(file: string): { url: string; headers: Record<string, string> } {
  for (const b of blocks(file).filter((x) => x.lang === "json" && x.text.includes("mcpServers"))) {
    const parsed = JSON.parse(b.text) as {
      mcpServers?: Record<string, { url: string; headers?: Record<string, string> }>;
    };
    const entry = parsed.mcpServers && Object.values(parsed.mcpServers)[0];
    if (entry) return { url: entry.url, headers: entry.headers ?? {} };
  }
  throw new Error(`${file}: no mcpServers entry found`);
}

/** The upload commands (`curl --data-binary @HH.txt -H 'Content-Type: text/plain' <link>`). */
export function uploadsOf(file: string): { file: string; contentType: string }[] {
  return [...readme(file).matchAll(/curl --data-binary @\S+ -H 'Content-Type: ([^']+)' <\w+>/g)].map((m) => ({
    file,
    contentType: m[1]!,
  }));
}
