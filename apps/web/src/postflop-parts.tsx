/**
 * Pieces of the board browser: the acting player's 13x13 grid (classes coloured by action frequency, one tab
 * stop, arrow keys move), the details of a class (its weight, frequencies and EV, and each combo's reach,
 * frequencies, EV and equity), a range grid shaded by weight, and a card picker.
 */

import { useEffect, useRef, useState } from "preact/hooks";
import type { PfAction, PfClass, PfCombo, PfComboStrategy } from "./postflop-api.js";
import { ALL_CARDS, comboClass, pfColours } from "./postflop-model.js";
import { gridClass, pct, RANKS } from "./ranges.js";

const MAX_COMBOS: Record<string, number> = { pair: 6, suited: 4, offsuit: 12 };
const maxCombos = (hand: string) =>
  hand.length === 2 ? MAX_COMBOS.pair! : hand.endsWith("s") ? MAX_COMBOS.suited! : MAX_COMBOS.offsuit!;

export function PfGrid({
  actions,
  classes,
  dim,
  selected,
  onSelect,
  label,
}: {
  actions: PfAction[] | null;
  classes: Map<string, PfClass>;
  dim: boolean;
  selected: string | null;
  onSelect: (hand: string) => void;
  label: string;
}) {
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const table = useRef<HTMLTableElement>(null);
  const colours = actions ? pfColours(actions) : [];
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
    table.current?.querySelector<HTMLButtonElement>(`button[data-rc="${nr}-${nc}"]`)?.focus();
  };
  return (
    <table ref={table} class={`grid${dim ? " dim" : ""}`} aria-label={label}>
      <tbody>
        {Array.from(RANKS).map((_, r) => (
          <tr key={r}>
            {Array.from(RANKS).map((_, c) => {
              const hand = gridClass(r, c);
              const cls = classes.get(hand);
              let at = 0;
              const stops: string[] = [];
              if (cls && actions) {
                actions.forEach((a, i) => {
                  const f = cls.frequencies[a.action] ?? 0;
                  const from = at;
                  at += f * 100;
                  if (f > 0) stops.push(`${colours[i]} ${from.toFixed(2)}% ${at.toFixed(2)}%`);
                });
              }
              const summary = cls
                ? `${cls.weight} combos; ${actions?.map((a) => `${a.action} ${pct(cls.frequencies[a.action] ?? 0)}`).join(", ")}`
                : "not in the range";
              return (
                <td key={hand}>
                  <button
                    type="button"
                    class={`cell${cls ? "" : " out"}${selected === hand ? " selected" : ""}`}
                    data-hand={hand}
                    data-rc={`${r}-${c}`}
                    data-weight={cls ? cls.weight : undefined}
                    data-freqs={cls ? JSON.stringify(cls.frequencies) : undefined}
                    tabIndex={focus[0] === r && focus[1] === c ? 0 : -1}
                    style={
                      stops.length > 0
                        ? { background: `linear-gradient(to right, ${stops.join(", ")})` }
                        : undefined
                    }
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

const fmt = (x: number | null, digits: number) => (x === null ? "–" : x.toFixed(digits));

/** A class at the node: its weight, frequency per action and EV; then every combo of it the range holds. */
export function PfDetails({
  actions,
  cls,
  hand,
  combos,
  loadCombo,
}: {
  actions: PfAction[] | null;
  cls: PfClass | undefined;
  hand: string | null;
  combos: PfCombo[] | null;
  /** Reads one combo's frequency and EV per action (the node with `combo`). */
  loadCombo: (combo: string, signal: AbortSignal) => Promise<PfComboStrategy | undefined>;
}) {
  const colours = actions ? pfColours(actions) : [];
  const mine = hand && combos ? combos.filter((c) => comboClass(c.combo) === hand) : [];
  const [picked, setPicked] = useState<string | null>(null);
  const [strategy, setStrategy] = useState<PfComboStrategy | "loading" | "error" | null>(null);
  const current = picked && mine.some((c) => c.combo === picked) ? picked : null;
  useEffect(() => {
    setStrategy(null);
    if (!current) return;
    const ctrl = new AbortController();
    setStrategy("loading");
    loadCombo(current, ctrl.signal).then(
      (s) => setStrategy(s ?? "error"),
      (e: Error) => {
        if (e.name !== "AbortError") setStrategy("error");
      },
    );
    return () => ctrl.abort();
  }, [current, combos]);
  return (
    <section class="details pf-details" aria-live="polite" aria-label="Hand details">
      {actions && hand ? (
        <>
          <h2 data-testid="detail-hand">
            {hand}{" "}
            <span class="muted">
              {cls ? `${cls.weight} combos · EV ${fmt(cls.evBb, 3)}bb` : "not in the range here"}
            </span>
          </h2>
          {cls ? (
            <p class="pf-class-freqs" data-testid="detail-freqs">
              {actions.map((a, i) => (
                <span key={a.action}>
                  <span class="swatch" style={{ background: colours[i] }} aria-hidden="true" />
                  {a.action} {pct(cls.frequencies[a.action] ?? 0)}
                </span>
              ))}
            </p>
          ) : null}
          {mine.length > 0 ? (
            <div class="scroll">
              <table class="combos" data-testid="detail-combos">
                <thead>
                  <tr>
                    <th scope="col">Combo</th>
                    <th scope="col">Reach</th>
                    {actions.map((a) => (
                      <th scope="col" key={a.action}>
                        {a.action}
                      </th>
                    ))}
                    <th scope="col">EV (bb)</th>
                    <th scope="col">Equity</th>
                  </tr>
                </thead>
                <tbody>
                  {mine.map((c) => (
                    <tr
                      key={c.combo}
                      data-combo={c.combo}
                      class={current === c.combo ? "selected" : undefined}
                    >
                      <th scope="row">
                        <button
                          type="button"
                          class="linkish"
                          aria-pressed={current === c.combo}
                          onClick={() => setPicked(current === c.combo ? null : c.combo)}
                        >
                          {c.combo}
                        </button>
                      </th>
                      <td>{c.reach.toFixed(4)}</td>
                      {actions.map((a) => (
                        <td key={a.action}>{pct(c.frequencies?.[a.action] ?? 0)}</td>
                      ))}
                      <td>{fmt(c.evBb, 3)}</td>
                      <td>{c.equity === null ? "–" : pct(c.equity)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p class="combo-evs" data-testid="combo-evs">
                {current === null ? (
                  <span class="muted">Tap a combo for its EV per action.</span>
                ) : strategy === "loading" || strategy === null ? (
                  <span class="muted">{current}: reading…</span>
                ) : strategy === "error" ? (
                  <span class="error">{current}: its EV per action could not be read.</span>
                ) : (
                  <>
                    {strategy.combo}:{" "}
                    {strategy.strategy.map((x, i) => (
                      <span key={x.action} data-action={x.action}>
                        {i > 0 ? " · " : ""}
                        {x.action} {pct(x.frequency)}, EV {fmt(x.evBb, 3)}bb
                      </span>
                    ))}
                  </>
                )}
              </p>
            </div>
          ) : cls && !combos ? (
            <p class="muted">Loading the combos…</p>
          ) : null}
        </>
      ) : (
        <p class="muted">Hover, focus or tap a hand for its combos, frequencies, EVs and equity.</p>
      )}
    </section>
  );
}

/** A player's range: each class shaded by its combos over the class's 6, 4 or 12. */
export function RangeGrid({
  title,
  weights,
  testid,
  selected,
}: {
  title: string;
  weights: Map<string, number> | null;
  testid: string;
  /** The class picked in the strategy grid: its weight in this range is shown under the grid. */
  selected: string | null;
}) {
  let total = 0;
  for (const w of weights?.values() ?? []) total += w;
  return (
    <figure class="range-grid" data-testid={testid}>
      <figcaption>
        {title}{" "}
        <span class="muted" data-testid={`${testid}-total`}>
          {weights ? `${total.toFixed(1)} combos` : "\u00a0"}
        </span>
      </figcaption>
      <div class="mini" role="img" aria-label={`${title}: combos per hand class`}>
        {Array.from(RANKS).flatMap((_, r) =>
          Array.from(RANKS).map((_, c) => {
            const hand = gridClass(r, c);
            const w = weights?.get(hand) ?? 0;
            return (
              <span
                key={hand}
                data-hand={hand}
                data-weight={weights?.has(hand) ? w : undefined}
                class={selected === hand ? "picked" : undefined}
                title={`${hand}: ${w.toFixed(2)} combos`}
                style={{ opacity: weights ? 0.08 + 0.92 * Math.min(1, w / maxCombos(hand)) : 0.08 }}
              />
            );
          }),
        )}
      </div>
      <p class="muted range-pick" data-testid={`${testid}-pick`}>
        {selected && weights ? `${selected}: ${(weights.get(selected) ?? 0).toFixed(2)} combos` : "\u00a0"}
      </p>
    </figure>
  );
}

/** 52 card buttons; cards in `dead` are disabled. */
export function CardPicker({
  dead,
  picked,
  onPick,
  label,
}: {
  dead: readonly string[];
  picked: readonly string[];
  onPick: (card: string) => void;
  label: string;
}) {
  const deadLower = dead.map((d) => d.toLowerCase());
  return (
    <fieldset class="cards">
      <legend class="visually-hidden">{label}</legend>
      {ALL_CARDS.map((card) => (
        <button
          type="button"
          key={card}
          class={`card-btn suit-${card[1]}`}
          data-card={card}
          disabled={deadLower.includes(card.toLowerCase())}
          aria-pressed={picked.includes(card)}
          onClick={() => onPick(card)}
        >
          {card[0]}
          <span aria-hidden="true">{{ s: "♠", h: "♥", d: "♦", c: "♣" }[card[1]!]}</span>
          <span class="visually-hidden">
            {{ s: " of spades", h: " of hearts", d: " of diamonds", c: " of clubs" }[card[1]!]}
          </span>
        </button>
      ))}
    </fieldset>
  );
}
