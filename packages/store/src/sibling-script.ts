/**
 * Scripts that a module runs in a worker thread or a child process, found beside it: once built, `<name>.js`
 * in dist/; from the sources (tests), `<name>.ts`, which Node runs with its types stripped given a resolve
 * hook that finds `./x.ts` for the sources' relative `./x.js` imports (`SOURCE_EXEC_ARGV`).
 */

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const HOOKS = `export async function resolve(s, c, next) {
  try { return await next(s, c); } catch (e) {
    if (/^\\.\\.?\\//.test(s) && s.endsWith(".js")) return next(s.slice(0, -3) + ".ts", c);
    throw e;
  }
}`;
const REGISTER = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** Node options that let a thread or process run TypeScript sources whose imports name `./x.js`. */
export const SOURCE_EXEC_ARGV: readonly string[] = [
  "--import",
  `data:text/javascript,${encodeURIComponent(REGISTER)}`,
];

/**
 * The script `name` beside the module at `from` (its `import.meta.url`): the built `name.js` with no extra
 * options, else the source `name.ts` with `SOURCE_EXEC_ARGV`.
 */
export function siblingScript(name: string, from: string): { url: URL; execArgv: string[] } {
  const built = new URL(`./${name}.js`, from);
  if (existsSync(fileURLToPath(built))) return { url: built, execArgv: [] };
  return { url: new URL(`./${name}.ts`, from), execArgv: [...SOURCE_EXEC_ARGV] };
}
