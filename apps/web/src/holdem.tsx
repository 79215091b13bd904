/**
 * The hold'em node: the 13x13 grid of classes (colour bars by action frequency; one tab stop, arrow keys
 * move) and the details of one class (frequency, combos and EV per action).
 */

import type { Node } from "@ranges/schema";
import { useRef, useState } from "preact/hooks";
import { actionColours, actionLabel, classCombos, gridClass, pct, RANKS } from "./ranges.js";

/** Frequencies of one class at the node, per action index. */
function freqsOf(node: Node, hand: string): number[] {
  return node.actions.map((a) => a.weights[hand] ?? 0);
}

export function Grid({
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
export function Details({
  node,
  hand,
  combosOf = classCombos,
}: {
  node: Node | null;
  hand: string | null;
  combosOf?: (hand: string) => number;
}) {
  const colours = node ? actionColours(node) : [];
  return (
    <section class="details" aria-live="polite" aria-label="Hand details">
      {node && hand ? (
        <>
          <h2 data-testid="detail-hand">
            {hand} <span class="muted">({combosOf(hand)} combos)</span>
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
                    <td>{(f * combosOf(hand)).toFixed(2)}</td>
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
