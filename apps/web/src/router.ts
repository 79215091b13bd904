/** History-API routing between the site's pages; links are real `<a href>` so they work without script too. */

import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

/** Goes to `url` (same origin) without reloading; `replace` keeps the history entry. */
export function navigate(url: string, replace = false): void {
  if (replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  for (const l of listeners) l();
}

/** The current location, re-rendered on navigation and on back/forward. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return new URL(window.location.href);
}

/** Click handler for in-site links: plain left clicks navigate in place, others open as the browser would. */
export function linkClick(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href);
  if (url.origin !== window.location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}
