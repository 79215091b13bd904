/**
 * The range viewer: pick a game and a stack, click through the action path, and read the 13x13 grid of the
 * node (colour bars by action frequency, EVs on hover, focus or tap), combos per action and the node's reach.
 * The URL holds game, stack and history (`/?game=nl/v2&stack=100&history=UTG_Fold_HJ`), so every view is a
 * deep link; back and forward walk the path.
 */

import { GAMES, type GameId, isKeyless, RangesError } from "@ranges/core";
import type { Catalog, GameCatalogEntry, Node } from "@ranges/schema";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError, fetchCatalog, fetchNode } from "./api.js";
import { getViewerKey, setViewerKey } from "./keystore.js";
import {
  actionColours,
  actionLabel,
  classCombos,
  gridClass,
  nextHistory,
  pct,
  RANKS,
  stepsOf,
  viewable,
} from "./ranges.js";
import { linkClick, navigate } from "./router.js";

interface ViewState {
  game: GameId;
  stack: number;
  history: string;
}

export function viewerUrl(v: ViewState): string {
  const q = new URLSearchParams({ game: v.game, stack: String(v.stack), history: v.history });
  return `/?${q.toString().replace(/%2F/g, "/")}`;
}

/** The view the URL asks for, completed with defaults from the catalog. */
function resolveView(url: URL, games: GameCatalogEntry[]): ViewState | null {
  if (games.length === 0) return null;
  const wanted = url.searchParams.get("game");
  const entry = games.find((g) => g.game === wanted) ?? games.find((g) => g.game === "nl/v2") ?? games[0]!;
  const game = entry.game as GameId;
  const rawStack = Number(url.searchParams.get("stack"));
  const stack = entry.stacks.includes(rawStack)
    ? rawStack
    : entry.stacks.includes(100)
      ? 100
      : entry.stacks[0]!;
  const history = url.searchParams.get("history")?.trim() || GAMES[game].seats[0]!;
  return { game, stack, history };
}

type Load =
  | { state: "loading" }
  | { state: "ok"; node: Node }
  | { state: "error"; error: ApiError | RangesError | Error };

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
  const view = catalog ? resolveView(url, games) : null;
  const needsKey = view ? !isKeyless(view.game, "node") : false;

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
        setLoad({ state: "ok", node });
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
        <p class="error">No hold'em packs are installed on this server yet.</p>
      </main>
    );
  }

  const go = (next: Partial<ViewState>, replace = false) => {
    if (!view) return;
    const merged = { ...view, ...next };
    if (next.game && next.game !== view.game) merged.history = GAMES[next.game].seats[0]!;
    navigate(viewerUrl(merged), replace);
  };

  const node = load.state === "ok" ? load.node : null;
  // While a node loads the previous one stays on screen (dimmed), so nothing moves.
  const shown = node ?? (load.state === "loading" ? lastNode : null);
  const entry = view ? games.find((g) => g.game === view.game) : undefined;

  return (
    <main class="viewer" aria-busy={load.state === "loading"}>
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

      {view ? <PathBar view={view} /> : <div class="pathbar placeholder" />}

      <section class="node-area">
        <div class="grid-wrap">
          <Grid node={shown} dim={load.state === "loading"} selected={selected} onSelect={setSelected} />
        </div>
        <div class="side">
          {load.state === "error" ? <NodeError error={load.error} view={view} needsKey={needsKey} /> : null}
          {shown && view ? (
            <Actions node={shown} view={view} busy={load.state === "loading"} />
          ) : load.state !== "error" ? (
            <div class="actions placeholder" aria-hidden="true" />
          ) : null}
          <Details node={shown} hand={selected} />
        </div>
      </section>
    </main>
  );
}

function KeyField({ apiKey, onChange }: { apiKey: string | null; onChange: (k: string | null) => void }) {
  const [draft, setDraft] = useState(apiKey ?? "");
  return (
    <label class="keyfield">
      API key
      <input
        type="password"
        autoComplete="off"
        spellcheck={false}
        placeholder="pr_… (this game needs a key)"
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

/** Frequencies of one class at the node, per action index. */
function freqsOf(node: Node, hand: string): number[] {
  return node.actions.map((a) => a.weights[hand] ?? 0);
}

function Grid({
  node,
  dim,
  selected,
  onSelect,
}: {
  node: Node | null;
  dim: boolean;
  selected: string | null;
  onSelect: (hand: string) => void;
}) {
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const tableRef = useRef<HTMLTableElement>(null);
  const colours = node ? actionColours(node) : [];

  const move = (e: KeyboardEvent, r: number, c: number) => {
    const d: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      Home: [0, -c],
      End: [0, 12 - c],
    };
    const step = d[e.key];
    if (!step) return;
    e.preventDefault();
    const nr = Math.max(0, Math.min(12, r + step[0]));
    const nc = Math.max(0, Math.min(12, c + step[1]));
    setFocus([nr, nc]);
    const btn = tableRef.current?.querySelector<HTMLButtonElement>(`button[data-rc="${nr}-${nc}"]`);
    btn?.focus();
  };

  return (
    <table
      ref={tableRef}
      class={`grid${dim ? " dim" : ""}`}
      aria-label={node ? `Strategy of ${node.actor} at ${node.history}` : "Strategy grid (loading)"}
    >
      <tbody>
        {Array.from(RANKS).map((_, r) => (
          <tr key={r}>
            {Array.from(RANKS).map((_, c) => {
              const hand = gridClass(r, c);
              const freqs = node ? freqsOf(node, hand) : [];
              let at = 0;
              const stops = freqs
                .map((f, i) => {
                  const from = at;
                  at += f * 100;
                  return f > 0 ? `${colours[i]} ${from.toFixed(2)}% ${at.toFixed(2)}%` : null;
                })
                .filter(Boolean);
              const background =
                stops.length > 0
                  ? `linear-gradient(to right, ${stops.join(", ")}, var(--empty) ${at.toFixed(2)}%)`
                  : undefined;
              const summary = node
                ? node.actions.map((a, i) => `${a.action} ${pct(freqs[i]!)}`).join(", ")
                : "loading";
              return (
                <td key={hand}>
                  <button
                    type="button"
                    class={`cell${selected === hand ? " selected" : ""}`}
                    data-hand={hand}
                    data-rc={`${r}-${c}`}
                    data-freqs={
                      node
                        ? JSON.stringify(Object.fromEntries(node.actions.map((a, i) => [a.action, freqs[i]])))
                        : undefined
                    }
                    tabIndex={focus[0] === r && focus[1] === c ? 0 : -1}
                    style={background ? { background } : undefined}
                    aria-label={`${hand}: ${summary}`}
                    aria-pressed={selected === hand}
                    onClick={() => {
                      setFocus([r, c]);
                      onSelect(hand);
                    }}
                    onMouseEnter={() => onSelect(hand)}
                    onFocus={() => {
                      setFocus([r, c]);
                      onSelect(hand);
                    }}
                    onKeyDown={(e) => move(e, r, c)}
                  >
                    {hand}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One class at the node: frequency, combos and EV per action. Fixed size, so hovering moves nothing. */
function Details({ node, hand }: { node: Node | null; hand: string | null }) {
  const colours = node ? actionColours(node) : [];
  return (
    <section class="details" aria-live="polite" aria-label="Hand details">
      {node && hand ? (
        <>
          <h2 data-testid="detail-hand">
            {hand} <span class="muted">({classCombos(hand)} combos)</span>
          </h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Freq</th>
                <th scope="col">Combos</th>
                <th scope="col">EV ({node.evUnit ?? "none"})</th>
              </tr>
            </thead>
            <tbody>
              {node.actions.map((a, i) => {
                const f = a.weights[hand] ?? 0;
                const ev = a.evs[hand];
                return (
                  <tr key={a.action} data-action={a.action}>
                    <th scope="row">
                      <span class="swatch" style={{ background: colours[i] }} aria-hidden="true" />
                      {actionLabel(a)}
                    </th>
                    <td data-testid="detail-freq">{pct(f)}</td>
                    <td>{(f * classCombos(hand)).toFixed(2)}</td>
                    <td data-testid="detail-ev">{ev === undefined ? "–" : ev.toFixed(3)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      ) : (
        <p class="muted">Hover, focus or tap a hand for its frequencies and EVs.</p>
      )}
    </section>
  );
}
