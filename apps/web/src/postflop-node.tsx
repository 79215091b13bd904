/**
 * The board browser's path and node panels: the path so far (one link per decision), the solve's status
 * (the flop pack's provenance, or the on-demand turn or river solve: the wait, then its exploitability as
 * the API labels it), the actions of the node (each walks the path; one that ends a street deals the next
 * card from a picker), and the picker for any flop.
 */

import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { PfAction, PfContext } from "./postflop-api.js";
import {
  boardCards,
  closesStreet,
  isCard,
  nextStreet,
  type PfView,
  pfColours,
  postflopUrl,
  stepActors,
} from "./postflop-model.js";
import { CardPicker } from "./postflop-parts.js";
import { pct } from "./ranges.js";
import { linkClick, navigate } from "./router.js";

export function PfPath({ view, seats }: { view: PfView; seats: { oop: string; ip: string } | undefined }) {
  const who = stepActors(view.path);
  const crumbs: { label: string; href: string | null }[] = [
    { label: `Flop ${view.board}`, href: view.path.length > 0 ? postflopUrl({ ...view, path: [] }) : null },
  ];
  view.path.forEach((step, j) => {
    const w = who[j]!;
    if (w === "card") {
      const cards = view.path.slice(0, j + 1).filter(isCard).length;
      crumbs.push({ label: `${cards === 1 ? "Turn" : "River"} ${step}`, href: null });
    } else {
      const seat = seats ? seats[w] : w.toUpperCase();
      crumbs.push({ label: `${seat} ${step}`, href: postflopUrl({ ...view, path: view.path.slice(0, j) }) });
    }
  });
  return (
    <nav class="pathbar" aria-label="Action path">
      <ol>
        {crumbs.map((c, i) => (
          <li key={`${i}-${c.label}`}>
            {c.href ? (
              <a href={c.href} onClick={linkClick}>
                {c.label}
              </a>
            ) : (
              <span aria-current={i === crumbs.length - 1 ? "page" : undefined}>{c.label}</span>
            )}
          </li>
        ))}
      </ol>
      <p class="grammar">
        path=<code data-testid="path">{view.path.join(",")}</code>
      </p>
    </nav>
  );
}

type LoadLike = { state: "loading"; since: number } | { state: "ok" } | { state: "error" };

export function SolveStatus({
  view,
  load,
  ctx,
  warnings,
}: {
  view: PfView | null;
  load: LoadLike;
  ctx: PfContext | null;
  warnings: string[];
}) {
  const [now, setNow] = useState(Date.now());
  const cards = view ? view.path.filter(isCard).length : 0;
  const solving = load.state === "loading" && cards > 0;
  useEffect(() => {
    if (!solving) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [solving]);
  let body: ComponentChildren = "\u00a0";
  if (solving && load.state === "loading") {
    const s = Math.max(0, (now - load.since) / 1000);
    const street = cards === 1 ? "turn" : "river";
    body = (
      <>
        <span data-testid="solving">
          Solving the {street} on demand… {s.toFixed(0)} s
        </span>{" "}
        <progress
          max={60}
          value={Math.min(60, s)}
          aria-label={`Solving the ${street}: seconds of the 60 s limit`}
        />{" "}
        <span class="muted">
          (by default the API solves a street to 0.5% of its pot, stopping at 600 iterations or 60 s)
        </span>
      </>
    );
  } else if (ctx?.solve) {
    const s = ctx.solve;
    body = (
      <span data-testid="solve">
        The {s.street} was solved on demand: exploitability{" "}
        <strong data-testid="exploitability">{s.exploitabilityPct}%</strong> ({s.exploitabilityNote}),{" "}
        {s.iterations} iterations in {s.solveSeconds} s, target {s.targetPct}%{" "}
        {s.reachedTarget ? "reached" : "not reached"}.
      </span>
    );
  } else if (ctx) {
    const p = ctx.provenance;
    body = (
      <span data-testid="solve">
        Flop solve: exploitability <strong data-testid="exploitability">{p.exploitabilityPct ?? "–"}%</strong>
        {p.exploitabilityNote ? ` (${p.exploitabilityNote})` : ""}, {p.iterations} iterations.
        {ctx.solvedBoard !== ctx.board
          ? ` Answered from the solve of ${ctx.solvedBoard}, suits mapped back.`
          : ""}
      </span>
    );
  }
  return (
    <div class="solve-status" aria-live="polite">
      <p>{body}</p>
      {warnings.length > 0 && load.state !== "loading" ? (
        <p class="warning" data-testid="warnings">
          {warnings.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

export function PfActions({
  view,
  ctx,
  actions,
  busy,
}: {
  view: PfView;
  ctx: PfContext;
  actions: PfAction[];
  busy: boolean;
}) {
  const [dealing, setDealing] = useState<string | null>(null);
  const colours = pfColours(actions);
  const street = ctx.nodeStreet;
  const next = nextStreet(street);
  const dead = [...boardCards(view.board), ...view.path.filter(isCard)];
  const streetStack = ctx.solve?.stackBb ?? ctx.stackBb;
  return (
    <section class="actions" aria-label={`Actions of ${ctx.actorSeat}`}>
      <h2>
        {ctx.actorSeat} to act{" "}
        <span class="muted">
          ({ctx.actor.toUpperCase()}, {street}, pot {ctx.nodePotBb}bb)
        </span>
      </h2>
      <p class="meta">Frequency over the range · EV in bb</p>
      <ul>
        {actions.map((a, i) => {
          const label = (
            <>
              <span class="swatch" style={{ background: colours[i] }} aria-hidden="true" />
              <span class="token">{a.action}</span>
              <span
                class="combos"
                data-testid={`pf-action-${i}`}
                data-freq={a.frequency}
                data-ev={a.evBb ?? ""}
              >
                {pct(a.frequency)} · {a.evBb === null ? "–" : a.evBb.toFixed(3)}
              </span>
            </>
          );
          const ends = closesStreet(a, ctx.actor);
          // A call that puts in the whole stack left at the street's start: no decision is left to deal to.
          const allIn = a.kind === "call" && a.toBb >= streetStack - 0.005;
          const path = [...view.path, a.action];
          return (
            <li key={a.action}>
              {a.kind === "fold" ? (
                <span class="action closed">
                  {label}
                  <span class="muted"> (hand over)</span>
                </span>
              ) : ends && allIn ? (
                <span class="action closed">
                  {label}
                  <span class="muted"> (all-in called: the cards are dealt out)</span>
                </span>
              ) : ends && next ? (
                <button
                  type="button"
                  class="action"
                  aria-expanded={dealing === a.action}
                  onClick={() => setDealing(dealing === a.action ? null : a.action)}
                >
                  {label}
                  <span class="muted"> · deal the {next}</span>
                </button>
              ) : ends ? (
                <span class="action closed">
                  {label}
                  <span class="muted"> (showdown)</span>
                </span>
              ) : (
                <a
                  class="action"
                  href={postflopUrl({ ...view, path })}
                  onClick={linkClick}
                  aria-disabled={busy}
                >
                  {label}
                </a>
              )}
              {dealing === a.action && next ? (
                <CardPicker
                  dead={dead}
                  picked={[]}
                  label={`The ${next} card after ${a.action}`}
                  onPick={(card) => {
                    setDealing(null);
                    navigate(postflopUrl({ ...view, path: [...path, card] }));
                  }}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Any flop: three cards from the picker (or typed); the API answers a flop it has not solved by naming the nearest. */
export function FlopPicker({ board, onShow }: { board: string; onShow: (board: string) => void }) {
  const [picked, setPicked] = useState<string[]>([]);
  const [text, setText] = useState("");
  const typed = text.replace(/\s+/g, "");
  const valid =
    /^([2-9TJQKA][shdc]){3}$/i.test(typed) && new Set(typed.toLowerCase().match(/../g)).size === 3;
  return (
    <details class="flop-picker">
      <summary>Any flop (card picker)</summary>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid)
            onShow(
              typed
                .match(/../g)!
                .map((c) => c[0]!.toUpperCase() + c[1]!.toLowerCase())
                .join(""),
            );
        }}
      >
        <label>
          Flop cards
          <input
            name="flop"
            value={text}
            placeholder={board}
            autoComplete="off"
            spellcheck={false}
            onInput={(e) => {
              setText((e.currentTarget as HTMLInputElement).value);
              setPicked([]);
            }}
          />
        </label>
        <button type="submit" class="btn primary" disabled={!valid}>
          Show
        </button>
      </form>
      <CardPicker
        dead={[]}
        picked={picked}
        label="Flop cards"
        onPick={(card) => {
          const next = picked.includes(card)
            ? picked.filter((c) => c !== card)
            : picked.length < 3
              ? [...picked, card]
              : picked;
          setPicked(next);
          setText(next.join(""));
        }}
      />
    </details>
  );
}
