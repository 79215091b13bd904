/** Absolute path of the built site (`dist/`, with a trailing slash); it exists once `pnpm build` ran. */
export declare const webRoot: string;
