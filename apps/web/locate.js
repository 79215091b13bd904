// Where the built site lives, for the API that serves it (apps/api): `pnpm build` writes it to dist/.
import { fileURLToPath } from "node:url";

export const webRoot = fileURLToPath(new URL("./dist/", import.meta.url));
