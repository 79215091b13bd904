/**
 * The postflop board browser at /postflop: choose a pack (a preflop line and one of its two trees) and a
 * board (the solved flops, filterable by texture, or any flop from the card picker, which names the nearest
 * solved flops when it is not solved), walk the action path, deal a turn and a river (solved on demand by the
 * API: the page shows the wait, then the solve's exploitability as the API labels it), and read the acting
 * player's 13x13 grid with each class's combos, EVs and equity, and both players' range weights. The URL
 * holds pack, board and path (`/postflop?pack=srp-btn-bb-100bb&board=AsQh6d&path=check`).
 */

import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError } from "./api.js";
import { getViewerKey } from "./keystore.js";
import {
  type Envelope,
  fetchPacks,
  fetchPfNode,
  fetchPfRange,
  fetchReport,
  type PackRow,
  type PfContext,
  type PfNode,
  type PfRange,
  type ReportBoard,
  type Unsupported,
} from "./postflop-api.js";
import {
  classWeights,
  nearestBoards,
  otherRangeRequest,
  type PfView,
  postflopUrl,
} from "./postflop-model.js";
import { FlopPicker, PfActions, PfPath, SolveStatus } from "./postflop-node.js";
import { PfDetails, PfGrid, RangeGrid } from "./postflop-parts.js";
import { linkClick, navigate } from "./router.js";
import { KeyField } from "./viewer.js";

type NodeEnv = Envelope<PfNode | Unsupported, PfContext>;
type Load =
  | { state: "loading"; since: number }
  /** `key`: the view the node was asked for (pack, board and path). */
  | { state: "ok"; env: NodeEnv; key: string }
  | { state: "error"; error: Error };

const TEXTURES: [string, string][] = [
  ["pairedness", "Pairing"],
  ["suitTexture", "Suits"],
  ["connectivity", "Connectedness"],
  ["highCardClass", "High card"],
];

/** The view the URL asks for; a pack it names that is not served is said (`notice`), not silently replaced. */
function resolve(url: URL, packs: PackRow[]): (PfView & { notice: string | null }) | null {
  const live = packs.filter((p) => p.available && (p.boards?.length ?? 0) > 0);
  if (live.length === 0) return null;
  const wanted = url.searchParams.get("pack")?.toLowerCase();
  const found = live.find((p) => p.pack === wanted);
  const pack = found ?? live.find((p) => p.pack === "srp-btn-bb-100bb") ?? live[0]!;
  if (wanted && !found) {
    const notice = `There is no postflop pack "${wanted}" on this server (packs: ${live.map((p) => p.pack).join(", ")}); showing ${pack.pack}.`;
    return { pack: pack.pack, board: pack.boards![0]!, path: [], notice };
  }
  const board = url.searchParams.get("board")?.trim() || pack.boards![0]!;
  const path = (url.searchParams.get("path") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return { pack: pack.pack, board, path, notice: null };
}

export function PostflopPage({ url }: { url: URL }) {
  const [packs, setPacks] = useState<PackRow[] | null>(null);
  const [packsError, setPacksError] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState<string | null>(getViewerKey());
  const [load, setLoad] = useState<Load>({ state: "loading", since: Date.now() });
  const [last, setLast] = useState<NodeEnv | null>(null);
  const [range, setRange] = useState<PfRange | null>(null);
  const [other, setOther] = useState<Map<string, number> | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [reports, setReports] = useState<Record<string, ReportBoard[]>>({});
  const [filters, setFilters] = useState<Record<string, string>>({});

  useEffect(() => {
    const ctrl = new AbortController();
    fetchPacks(ctrl.signal).then(
      (env) => setPacks(env.result.packs),
      (e: Error) => {
        if (e.name !== "AbortError") setPacksError(e.message);
      },
    );
    return () => ctrl.abort();
  }, []);

  const view = packs ? resolve(url, packs) : null;
  const pathKey = view?.path.join(",");
  const packRow = packs?.find((p) => p.pack === view?.pack);

  // The node, then the actor's combos and the other player's range.
  useEffect(() => {
    if (!view) return;
    const ctrl = new AbortController();
    setLoad({ state: "loading", since: Date.now() });
    setRange(null);
    setOther(null);
    const { pack, board, path } = view;
    fetchPfNode(pack, board, path, apiKey, ctrl.signal).then(
      (env) => {
        setLoad({ state: "ok", env, key: `${pack}|${board}|${path.join(",")}` });
        setLast(env);
        if (env.coverage.status !== "exact") return;
        const node = env.result as PfNode;
        fetchPfRange(pack, board, path, null, apiKey, ctrl.signal).then(
          (r) => setRange(r.result),
          () => undefined,
        );
        const req = otherRangeRequest(path, env.context.actor, node.actions[0]!.action);
        fetchPfRange(pack, board, req.path, req.action, apiKey, ctrl.signal).then(
          (r) => setOther(classWeights(r.result.combos, req.dealtSince)),
          () => undefined,
        );
      },
      (error: Error) => {
        if (error.name !== "AbortError") setLoad({ state: "error", error });
      },
    );
    return () => ctrl.abort();
  }, [view?.pack, view?.board, pathKey, apiKey]);

  // The textures of the solved flops (the board report), once per pack.
  useEffect(() => {
    if (!view || !apiKey || reports[view.pack]) return;
    const ctrl = new AbortController();
    fetchReport(view.pack, apiKey, ctrl.signal).then(
      (env) => setReports((r) => ({ ...r, [view.pack]: env.result.boards })),
      () => undefined,
    );
    return () => ctrl.abort();
  }, [view?.pack, apiKey]);

  const env = load.state === "ok" ? load.env : load.state === "loading" ? last : null;
  const exact = env && env.coverage.status === "exact" ? (env.result as PfNode) : null;
  const ctx = exact ? env!.context : null;
  const classes = useMemo(() => new Map((exact?.classes ?? []).map((c) => [c.hand, c])), [exact]);
  const actorWeights = useMemo(() => new Map((exact?.classes ?? []).map((c) => [c.hand, c.weight])), [exact]);
  // A node asked for another view (the first render after the URL changes, before the effect above starts
  // the new request) counts as loading: its numbers are not shown as the new view's.
  const stale = load.state === "ok" && (!view || load.key !== `${view.pack}|${view.board}|${pathKey}`);
  const busy = load.state === "loading" || stale;

  if (packsError) {
    return (
      <main class="postflop">
        <p role="alert" class="error">
          The postflop packs could not be listed: {packsError}
        </p>
      </main>
    );
  }
  if (packs && !view) {
    return (
      <main class="postflop">
        <p class="error">No postflop pack is installed on this server.</p>
      </main>
    );
  }

  const go = (next: Partial<PfView>) => {
    if (view) navigate(postflopUrl({ pack: view.pack, board: view.board, path: view.path, ...next }));
  };
  const lines = [...new Set((packs ?? []).filter((p) => p.available).map((p) => p.basePack ?? p.pack))];
  const trees = (packs ?? []).filter(
    (p) => p.available && (p.basePack ?? p.pack) === (packRow?.basePack ?? view?.pack),
  );
  const report = view ? reports[view.pack] : undefined;
  const textureOf = new Map((report ?? []).map((b) => [b.board, b.texture]));
  const boards = (packRow?.boards ?? []).filter((b) =>
    TEXTURES.every(([k]) => !filters[k] || textureOf.get(b)?.[k] === filters[k]),
  );
  const choices = (k: string) => [...new Set((report ?? []).map((b) => b.texture[k]!))].sort();
  const switchPack = (pack: string) => {
    const row = packs?.find((p) => p.pack === pack);
    const keep = view && row?.boards?.includes(view.board);
    navigate(postflopUrl({ pack, board: keep ? view!.board : row!.boards![0]!, path: [] }));
  };
  const unsupported = env && env.coverage.status === "unsupported" ? (env.result as Unsupported) : null;
  const otherSeat = ctx ? (ctx.actor === "oop" ? ctx.preflop.ip : ctx.preflop.oop) : "";

  return (
    <main class="postflop" aria-busy={busy}>
      <h1 class="visually-hidden">Postflop board browser</h1>
      <form class="pickers pf-pickers" onSubmit={(e) => e.preventDefault()}>
        <label class="line">
          Line
          <select
            name="line"
            value={packRow?.basePack ?? view?.pack ?? ""}
            disabled={!view}
            onChange={(e) => switchPack((e.currentTarget as HTMLSelectElement).value)}
          >
            {lines.map((l) => (
              <option key={l} value={l}>
                {l} · {packs?.find((p) => p.pack === l)?.line}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tree
          <select
            name="tree"
            value={view?.pack ?? ""}
            disabled={!view}
            onChange={(e) => switchPack((e.currentTarget as HTMLSelectElement).value)}
          >
            {trees.map((p) => (
              <option key={p.pack} value={p.pack}>
                {p.tree}
              </option>
            ))}
          </select>
        </label>
        <label>
          Flop
          <select
            name="board"
            value={view?.board ?? ""}
            disabled={!view}
            onChange={(e) => go({ board: (e.currentTarget as HTMLSelectElement).value, path: [] })}
          >
            {view && !boards.includes(view.board) ? <option value={view.board}>{view.board}</option> : null}
            {boards.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <KeyField apiKey={apiKey} onChange={setApiKey} placeholder="pr_… (postflop reads need a key)" />
      </form>
      {view?.notice ? (
        <p class="notice" role="status" data-testid="notice">
          {view.notice}
        </p>
      ) : null}
      <div class="pickers textures">
        {TEXTURES.map(([k, label]) => (
          <label key={k}>
            {label}
            <select
              name={k}
              value={filters[k] ?? ""}
              disabled={!report}
              onChange={(e) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLSelectElement).value })}
            >
              <option value="">any</option>
              {choices(k).map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        ))}
        <p class="muted texture-count" data-testid="board-count">
          {report
            ? `${boards.length} of ${packRow?.boards?.length ?? 0} solved flops`
            : apiKey
              ? "Reading the flops' textures…"
              : "Textures need a key"}
        </p>
      </div>
      <FlopPicker board={view?.board ?? ""} onShow={(board) => go({ board, path: [] })} />
      {view ? <PfPath view={view} seats={packRow?.preflop} /> : <div class="pathbar placeholder" />}
      <SolveStatus view={view} load={load} ctx={ctx} warnings={env?.warnings ?? []} />

      <section class="node-area">
        <div class="grid-wrap">
          <PfGrid
            actions={exact?.actions ?? null}
            classes={classes}
            dim={busy}
            selected={selected}
            onSelect={setSelected}
            label={ctx ? `Strategy of ${ctx.actorSeat} on ${ctx.board}` : "Strategy grid"}
          />
        </div>
        <div class="side">
          {load.state === "error" ? <PfError error={load.error} view={view} /> : null}
          {unsupported && view ? <UnsolvedBoard reason={unsupported.reason} view={view} /> : null}
          {exact && ctx && view ? (
            <PfActions view={view} ctx={ctx} actions={exact.actions} busy={busy} />
          ) : load.state === "error" || unsupported ? null : (
            <div class="actions placeholder" aria-hidden="true" />
          )}
          <PfDetails
            actions={exact?.actions ?? null}
            cls={selected ? classes.get(selected) : undefined}
            hand={selected}
            combos={range?.combos ?? null}
            loadCombo={(combo, signal) =>
              view
                ? fetchPfNode(view.pack, view.board, view.path, apiKey, signal, combo).then(
                    (env) => (env.result as PfNode).combo,
                  )
                : Promise.resolve(undefined)
            }
          />
        </div>
      </section>
      <section class="ranges" aria-label="Range weights of both players">
        <RangeGrid
          title={ctx ? `${ctx.actorSeat} (to act)` : "Player to act"}
          weights={exact ? actorWeights : null}
          testid="range-actor"
          selected={selected}
        />
        <RangeGrid
          title={ctx ? otherSeat : "The other player"}
          weights={exact ? other : null}
          testid="range-other"
          selected={selected}
        />
      </section>
    </main>
  );
}

function PfError({ error, view }: { error: Error; view: PfView | null }) {
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <div role="alert" class="error">
      <p>{error.message}</p>
      {status === 401 ? (
        <p>
          Postflop reads need an API key. <a href="/account">Sign in to the account area</a> to create one,
          then paste it above.
        </p>
      ) : null}
      {view && view.path.length > 0 ? (
        <p>
          <a href={postflopUrl({ ...view, path: [] })} onClick={linkClick}>
            Back to the flop
          </a>
        </p>
      ) : null}
    </div>
  );
}

function UnsolvedBoard({ reason, view }: { reason: string; view: PfView }) {
  const near = nearestBoards(reason);
  return (
    <div class="unsolved" role="status" data-testid="unsolved">
      <p>{reason}</p>
      {near.length > 0 ? (
        <p>
          Nearest solved flops:{" "}
          {near.map((b, i) => (
            <span key={b}>
              {i > 0 ? ", " : ""}
              <a href={postflopUrl({ ...view, board: b, path: [] })} onClick={linkClick} data-board={b}>
                {b}
              </a>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
