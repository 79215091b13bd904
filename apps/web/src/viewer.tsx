/**
 * The range viewer: pick a game and a stack, click through the action path, and read the node. Hold'em
 * nodes show the 13x13 grid (colour bars by action frequency, EVs on hover, focus or tap); PLO nodes (16,432
 * classes) show the whole range's action shares, categories by suit structure and shape, and a searchable,
 * sortable class list (plo-view.tsx). The URL holds game, stack and history
 * (`/?game=plo&stack=100&history=UTG`), so every view is a deep link; back and forward walk the path.
 */

import { GAMES, type GameId, isKeyless, RangesError } from "@ranges/core";
import type { Catalog, GameCatalogEntry, Node } from "@ranges/schema";
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError, fetchCatalog, fetchNode } from "./api.js";
import { Details, Grid } from "./holdem.js";
import { getViewerKey, setViewerKey } from "./keystore.js";
import { PloView } from "./plo-view.js";
import { actionColours, actionLabel, nextHistory, pct, stepsOf, viewable } from "./ranges.js";
import { linkClick, navigate } from "./router.js";

export interface ViewState {
  game: GameId;
  stack: number;
  history: string;
}

export function viewerUrl(v: ViewState): string {
  const q = new URLSearchParams({ game: v.game, stack: String(v.stack), history: v.history });
  return `/?${q.toString().replace(/%2F/g, "/").replace(/%28/g, "(").replace(/%29/g, ")")}`;
}

/**
 * The view the URL asks for, completed with defaults from the catalog; `notice` says what was asked for and
 * is not there (a game or a stack), so the page never silently shows another game than the URL names.
 */
function resolveView(url: URL, games: GameCatalogEntry[]): { view: ViewState; notice: string | null } | null {
  if (games.length === 0) return null;
  const wanted = url.searchParams.get("game");
  const found = games.find((g) => g.game === wanted);
  const entry = found ?? games.find((g) => g.game === "nl/v2") ?? games[0]!;
  const game = entry.game as GameId;
  const rawStack = url.searchParams.get("stack");
  const asked = Number(rawStack);
  const stack = entry.stacks.includes(asked) ? asked : entry.stacks.includes(100) ? 100 : entry.stacks[0]!;
  let notice: string | null = null;
  if (wanted !== null && !found) {
    notice = `There is no game "${wanted}" on this server (games: ${games.map((g) => g.game).join(", ")}); showing ${game}.`;
  } else if (rawStack !== null && stack !== asked) {
    notice = `${game} has no ${rawStack}bb pack (stacks: ${entry.stacks.join(", ")}bb); showing ${stack}bb.`;
  }
  const history =
    (found || wanted === null ? url.searchParams.get("history")?.trim() : "") || GAMES[game].seats[0]!;
  return { view: { game, stack, history }, notice };
}

type Load =
  | { state: "loading" }
  /** `key`: the view the node was asked for (`viewKey`). */
  | { state: "ok"; node: Node; key: string }
  | { state: "error"; error: ApiError | RangesError | Error };

/** Which node a view asks for. */
const viewKey = (v: ViewState): string => `${v.game}|${v.stack}|${v.history}`;

export function Viewer({ url }: { url: URL }) {
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [catalogError, setCatalogError] = useState<string | null>(null);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [lastNode, setLastNode] = useState<Node | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState<string | null>(getViewerKey());

  useEffect(() => {
    const ctrl = new AbortController();
    fetchCatalog(ctrl.signal).then(setCatalog, (e: Error) => {
      if (e.name !== "AbortError") setCatalogError(e.message);
    });
    return () => ctrl.abort();
  }, []);

  const games = useMemo(
    () => (catalog?.games ?? []).filter((g) => viewable(g.game) && g.stacks.length > 0),
    [catalog],
  );
  const resolved = catalog ? resolveView(url, games) : null;
  const view = resolved?.view ?? null;
  const needsKey = view ? !isKeyless(view.game, "node") : false;
  const omaha = view ? GAMES[view.game].variant === "omaha" : false;

  useEffect(() => {
    if (!view) return;
    const ctrl = new AbortController();
    setLoad({ state: "loading" });
    try {
      // The grammar's own errors (a seat out of order, a token the game lacks) need no request.
      stepsOf(view.game, view.history);
    } catch (error) {
      setLoad({ state: "error", error: error as Error });
      return;
    }
    fetchNode(view.game, view.stack, view.history, needsKey ? apiKey : null, ctrl.signal).then(
      (node) => {
        setLoad({ state: "ok", node, key: viewKey(view) });
        setLastNode(node);
      },
      (error: Error) => {
        if (error.name !== "AbortError") setLoad({ state: "error", error });
      },
    );
    return () => ctrl.abort();
  }, [view?.game, view?.stack, view?.history, needsKey, apiKey]);

  if (catalogError) {
    return (
      <main class="viewer">
        <p role="alert" class="error">
          The game catalog could not be loaded: {catalogError}
        </p>
      </main>
    );
  }
  if (catalog && games.length === 0) {
    return (
      <main class="viewer">
        <p class="error">No packs are installed on this server yet.</p>
      </main>
    );
  }

  const go = (next: Partial<ViewState>, replace = false) => {
    if (!view) return;
    const merged = { ...view, ...next };
    if (next.game && next.game !== view.game) merged.history = GAMES[next.game].seats[0]!;
    navigate(viewerUrl(merged), replace);
  };

  // A loaded node answers the view only when it was asked for this view: on the first render after the URL
  // changes, before the effect above starts the new request, the old node is still "ok" and counts as loading.
  const loading = load.state === "loading" || (load.state === "ok" && (!view || load.key !== viewKey(view)));
  const node = load.state === "ok" && !loading ? load.node : null;
  // While a node loads the previous one of the same game stays on screen (dimmed), so nothing moves.
  const previous = loading && lastNode?.game === view?.game ? lastNode : null;
  const shown = node ?? previous;
  const entry = view ? games.find((g) => g.game === view.game) : undefined;
  const busy = loading;

  return (
    <main class={`viewer${omaha ? " omaha" : ""}`} aria-busy={busy}>
      <h1 class="visually-hidden">Range viewer</h1>
      <form class="pickers" onSubmit={(e) => e.preventDefault()}>
        <label>
          Game
          <select
            value={view?.game ?? ""}
            disabled={!view}
            onChange={(e) => go({ game: (e.currentTarget as HTMLSelectElement).value as GameId })}
          >
            {games.map((g) => (
              <option key={g.game} value={g.game}>
                {g.game} · {g.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stack
          <select
            value={view ? String(view.stack) : ""}
            disabled={!view}
            onChange={(e) => go({ stack: Number((e.currentTarget as HTMLSelectElement).value) })}
          >
            {(entry?.stacks ?? []).map((s) => (
              <option key={s} value={s}>
                {s}bb
              </option>
            ))}
          </select>
        </label>
        {needsKey ? <KeyField apiKey={apiKey} onChange={setApiKey} /> : null}
      </form>
      {resolved?.notice ? (
        <p class="notice" role="status" data-testid="notice">
          {resolved.notice}
        </p>
      ) : null}

      {view ? <PathBar view={view} /> : <div class="pathbar placeholder" />}

      {omaha && view ? (
        <PloView
          node={shown}
          dim={busy}
          error={
            load.state === "error" ? <NodeError error={load.error} view={view} needsKey={needsKey} /> : null
          }
          actions={shown ? <Actions node={shown} view={view} busy={busy} /> : null}
        />
      ) : (
        <section class="node-area">
          <div class="grid-wrap">
            <Grid node={shown} dim={busy} selected={selected} onSelect={setSelected} />
          </div>
          <div class="side">
            {load.state === "error" ? <NodeError error={load.error} view={view} needsKey={needsKey} /> : null}
            {shown && view ? (
              <Actions node={shown} view={view} busy={busy} />
            ) : load.state !== "error" ? (
              <div class="actions placeholder" aria-hidden="true" />
            ) : null}
            <Details node={shown} hand={selected} />
          </div>
        </section>
      )}
    </main>
  );
}

export function KeyField({
  apiKey,
  onChange,
  placeholder = "pr_… (this game needs a key)",
}: {
  apiKey: string | null;
  onChange: (k: string | null) => void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(apiKey ?? "");
  return (
    <label class="keyfield">
      API key
      <input
        type="password"
        autoComplete="off"
        spellcheck={false}
        placeholder={placeholder}
        value={draft}
        onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
        onChange={(e) => {
          const v = (e.currentTarget as HTMLInputElement).value.trim() || null;
          setViewerKey(v);
          onChange(v);
        }}
      />
    </label>
  );
}

/** The action path so far, one link per step back, and the path grammar text of the node. */
function PathBar({ view }: { view: ViewState }) {
  let steps: { seat: string; token: string }[] = [];
  try {
    steps = stepsOf(view.game, view.history);
  } catch {
    steps = [];
  }
  const actor = view.history.split("_").pop() ?? "";
  const crumbs: { label: string; href: string; current: boolean }[] = [];
  let prefix = "";
  for (const s of steps) {
    const history = prefix ? `${prefix}_${s.seat}` : s.seat;
    crumbs.push({ label: `${s.seat} ${s.token}`, href: viewerUrl({ ...view, history }), current: false });
    prefix = `${history}_${s.token}`;
  }
  crumbs.push({ label: `${actor} ?`, href: viewerUrl(view), current: true });
  return (
    <nav class="pathbar" aria-label="Action path">
      <ol>
        {crumbs.map((c, i) => (
          <li key={`${i}-${c.label}`}>
            {c.current ? (
              <span aria-current="page">{c.label}</span>
            ) : (
              <a href={c.href} onClick={linkClick}>
                {c.label}
              </a>
            )}
          </li>
        ))}
      </ol>
      <p class="grammar">
        history=<code data-testid="history">{view.history}</code>
      </p>
    </nav>
  );
}

function NodeError({ error, view, needsKey }: { error: Error; view: ViewState | null; needsKey: boolean }) {
  const status = error instanceof ApiError ? error.status : error instanceof RangesError ? error.status : 0;
  const start = view ? viewerUrl({ ...view, history: GAMES[view.game].seats[0]! }) : "/";
  return (
    <div role="alert" class="error">
      <p>{error.message}</p>
      {status === 401 && needsKey ? (
        <p>
          {view?.game} needs an API key. <a href="/account">Sign in to the account area</a> to create one,
          then use it here.
        </p>
      ) : null}
      <p>
        <a href={start} onClick={linkClick}>
          Back to the first decision
        </a>
      </p>
    </div>
  );
}

/** The actions of the node: colour, token, size, share of the range in combos; each leads to the next node. */
function Actions({ node, view, busy }: { node: Node; view: ViewState; busy: boolean }) {
  const colours = actionColours(node);
  const total = node.actions.reduce((sum, a) => sum + a.combos, 0);
  return (
    <section class="actions" aria-label={`Actions of ${node.actor}`}>
      <h2>
        {node.actor} to act <span class="muted">({node.stack}bb)</span>
      </h2>
      <p class="meta">
        reach <strong data-testid="reach">{node.reach}</strong>
        {" · "}
        {node.evUnit
          ? `EVs in ${node.evUnit}, relative to ${node.evBaseline ?? "no baseline"}`
          : "no EVs in this game"}
      </p>
      <ul>
        {node.actions.map((a, i) => {
          const next = nextHistory(view.game, node.history, a);
          const share = total > 0 ? a.combos / total : 0;
          const label = (
            <>
              <span class="swatch" style={{ background: colours[i] }} aria-hidden="true" />
              <span class="token">{actionLabel(a)}</span>
              <span class="combos" data-testid={`combos-${a.action}`}>
                {a.combos.toFixed(1)} combos · {pct(share)}
              </span>
            </>
          );
          return (
            <li key={a.action}>
              {next ? (
                <a
                  class="action"
                  href={viewerUrl({ ...view, history: next })}
                  onClick={linkClick}
                  aria-disabled={busy}
                  title={`spot=${node.history}_${a.action}`}
                >
                  {label}
                </a>
              ) : (
                <span class="action closed" title={`spot=${node.history}_${a.action}: preflop ends here`}>
                  {label}
                  <span class="muted"> (ends preflop)</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
