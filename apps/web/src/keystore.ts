/**
 * The API key the viewer sends for games that need one. It stays in this browser's localStorage: the account
 * area offers "Use in the viewer" when a key is created (its secret is shown only then), or one is pasted.
 * Signing out forgets it, and so does revoking it in the account area (`forgetViewerKey`).
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

/**
 * Forgets the viewer's key: whichever it is (on sign-out), or, given a key id (`pr_<id>_…`'s id), only when
 * it is that key (on its revocation).
 */
export function forgetViewerKey(keyId?: string): void {
  const key = getViewerKey();
  if (key === null) return;
  const id = keyId?.startsWith("pr_") ? keyId.slice(3) : keyId;
  if (id === undefined || key.trim().startsWith(`pr_${id}_`)) setViewerKey(null);
}
