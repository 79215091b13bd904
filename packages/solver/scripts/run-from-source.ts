/**
 * Lets a script run the solver's TypeScript sources directly with `node script.ts` (Node 24, or 22.18 and
 * later: type stripping on by default, and `registerHooks`). The sources import each other as `./x.js`
 * (NodeNext style); run from source, those files are `./x.ts`, so a relative `.js` specifier that does not
 * resolve is retried as `.ts`.
 *
 * Import this module first, for its effect, and load the sources after it with a dynamic `import()`: static
 * imports are resolved before any module body runs, so they would not see the hook.
 *
 *   import "./run-from-source.ts";
 *   const solver: typeof import("../src/index.ts") = await import("../src/index.ts");
 */

import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
