/**
 * The API key the viewer sends for games that need one. It stays in this browser's localStorage: the account
 * area offers "Use in the viewer" when a key is created (its secret is shown only then), or one is pasted.
 */

const STORAGE = "ranges.viewerKey";

export function getViewerKey(): string | null {
  try {
    return window.localStorage.getItem(STORAGE);
  } catch {
    return null;
  }
}

export function setViewerKey(key: string | null): void {
  try {
    if (key) window.localStorage.setItem(STORAGE, key);
    else window.localStorage.removeItem(STORAGE);
  } catch {
    // Storage disabled: the key lives for this page only.
  }
}
