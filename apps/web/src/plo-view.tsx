/**
 * A PLO node: the whole range's action shares (the shell's Actions, which walk the path), the categories
 * by suit structure and by shape with each one's share per action, the details of one class, and the list
 * of the 16,432 classes: searchable (a class in the spec's notation, four cards, or a pattern such as AAxx),
 * filterable by category, sortable by strength, combos, frequency or EV per action, 50 to a page.
 */

import type { Node } from "@ranges/schema";
import type { ComponentChildren } from "preact";
import { useMemo, useRef, useState } from "preact/hooks";
import { Details } from "./holdem.js";
import {
  type CategoryStat,
  type ClassRow,
  categoryStats,
  classRows,
  matchesPattern,
  parseSearch,
  SHAPE_CATEGORIES,
  type SortKey,
  SUIT_CATEGORIES,
  SUITED_ACE,
  sortRows,
} from "./plo.js";
import { actionColours, actionLabel, pct } from "./ranges.js";

const PAGE = 50;

export function PloView({
  node,
  dim,
  error,
  actions,
}: {
  node: Node | null;
  dim: boolean;
  error: ComponentChildren;
  actions: ComponentChildren;
}) {
  const [selected, setSelected] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const [category, setCategory] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "order", desc: false });
  const [page, setPage] = useState(0);

  const rows = useMemo(() => (node ? classRows(node) : []), [node]);
  const combosOf = useMemo(() => {
    const m = new Map(rows.map((r) => [r.name, r.combos]));
    return (name: string) => m.get(name) ?? 0;
  }, [rows]);
  const search = parseSearch(query);
  const listed = useMemo(() => {
    let r = rows;
    if (category) r = r.filter((x) => x.cats.has(category));
    if (search.kind === "exact") r = r.filter((x) => x.name === search.name);
    else if (search.kind === "pattern")
      r = r.filter((x) => matchesPattern(x.name, search.groups, search.loose));
    else if (search.kind === "invalid") r = [];
    return sortRows(r, sort.key, sort.desc);
  }, [rows, category, query, sort.key, sort.desc]);
  const pages = Math.max(1, Math.ceil(listed.length / PAGE));
  const at = Math.min(page, pages - 1);

  const n = node?.actions.length ?? 0;
  const suit = useMemo(() => categoryStats(rows, SUIT_CATEGORIES, n), [rows, n]);
  const shape = useMemo(() => categoryStats(rows, [...SHAPE_CATEGORIES, SUITED_ACE], n), [rows, n]);

  const pickCategory = (id: string) => {
    setCategory(category === id ? null : id);
    setPage(0);
  };

  return (
    <section class={`plo-area${dim ? " dim" : ""}`}>
      <div class="plo-left">
        {error}
        {actions ?? (error ? null : <div class="actions placeholder" aria-hidden="true" />)}
        <Categories
          node={node}
          title="By suit structure"
          stats={suit}
          active={category}
          onPick={pickCategory}
          testid="cat-suit"
        />
        <Categories
          node={node}
          title="By shape"
          stats={shape}
          active={category}
          onPick={pickCategory}
          testid="cat-shape"
        />
      </div>
      <div class="plo-right">
        <Details node={node} hand={selected} combosOf={combosOf} />
        <div class="plo-search">
          <label>
            Find classes
            <input
              type="search"
              name="class-search"
              autoComplete="off"
              spellcheck={false}
              placeholder="(AK)(QJ), AsKsQhJh, AAxx or (AK)"
              value={query}
              onInput={(e) => {
                setQuery((e.currentTarget as HTMLInputElement).value);
                setPage(0);
              }}
            />
          </label>
          <p class="muted search-note" data-testid="search-note" aria-live="polite">
            {search.kind === "invalid" ? (
              <span class="error">{search.message}</span>
            ) : search.kind === "exact" ? (
              <>
                Class <code>{search.name}</code>
              </>
            ) : node ? (
              `${listed.length.toLocaleString("en-US")} classes`
            ) : (
              "\u00a0"
            )}
            {category ? (
              <>
                {" · "}
                <button type="button" class="linkish" onClick={() => pickCategory(category)}>
                  all categories
                </button>
              </>
            ) : null}
          </p>
        </div>
        <nav class="pager" aria-label="Class list pages">
          <button type="button" class="btn" disabled={at === 0} onClick={() => setPage(at - 1)}>
            Previous
          </button>
          <span data-testid="page">{node ? `page ${at + 1} of ${pages}` : "\u00a0"}</span>
          <button type="button" class="btn" disabled={at >= pages - 1} onClick={() => setPage(at + 1)}>
            Next
          </button>
        </nav>
        <ClassList
          node={node}
          rows={listed.slice(at * PAGE, at * PAGE + PAGE)}
          sort={sort}
          onSort={(key) => {
            setSort(
              sort.key === key
                ? { key, desc: !sort.desc }
                : { key, desc: key !== "order" && key !== "combos" },
            );
            setPage(0);
          }}
          selected={selected}
          onSelect={setSelected}
        />
      </div>
    </section>
  );
}

function Categories({
  node,
  title,
  stats,
  active,
  onPick,
  testid,
}: {
  node: Node | null;
  title: string;
  stats: CategoryStat[];
  active: string | null;
  onPick: (id: string) => void;
  testid: string;
}) {
  const colours = node ? actionColours(node) : [];
  return (
    <section class="categories" aria-label={`Categories ${title.toLowerCase()}`} data-testid={testid}>
      <h2>{title}</h2>
      <ul>
        {stats.map((s) => {
          const total = s.combos.reduce((a, b) => a + b, 0);
          let from = 0;
          const stops = s.combos.map((c, i) => {
            const start = from;
            from += total > 0 ? (c / total) * 100 : 0;
            return `${colours[i]} ${start.toFixed(2)}% ${from.toFixed(2)}%`;
          });
          const shares = node
            ? node.actions
                .map((a, i) => `${a.action} ${pct(total > 0 ? s.combos[i]! / total : 0)}`)
                .join(" · ")
            : "";
          return (
            <li key={s.id}>
              <button
                type="button"
                class="category"
                aria-pressed={active === s.id}
                data-cat={s.id}
                data-hands={s.hands}
                data-combos={JSON.stringify(s.combos)}
                onClick={() => onPick(s.id)}
              >
                <span class="cat-label">
                  {s.label}{" "}
                  <span class="muted">{node ? `${s.hands.toLocaleString("en-US")} hands` : ""}</span>
                </span>
                <span
                  class="cat-bar"
                  aria-hidden="true"
                  style={node ? { background: `linear-gradient(to right, ${stops.join(", ")})` } : undefined}
                />
                <span class="cat-shares" data-testid="cat-shares">
                  {shares || "\u00a0"}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ClassList({
  node,
  rows,
  sort,
  onSort,
  selected,
  onSelect,
}: {
  node: Node | null;
  rows: ClassRow[];
  sort: { key: SortKey; desc: boolean };
  onSort: (key: SortKey) => void;
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  const [focus, setFocus] = useState(0);
  const body = useRef<HTMLTableSectionElement>(null);
  const colours = node ? actionColours(node) : [];
  const ariaSort = (key: SortKey) =>
    sort.key === key ? (sort.desc ? "descending" : "ascending") : undefined;
  const head = (key: SortKey, label: string) => (
    <button type="button" class="sort" data-sort={key} onClick={() => onSort(key)}>
      {label}
      <span aria-hidden="true">{sort.key === key ? (sort.desc ? " ▼" : " ▲") : ""}</span>
    </button>
  );
  const row = Math.min(focus, Math.max(0, rows.length - 1));
  const move = (e: KeyboardEvent, i: number) => {
    const to = { ArrowUp: i - 1, ArrowDown: i + 1, Home: 0, End: rows.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const j = Math.max(0, Math.min(rows.length - 1, to));
    setFocus(j);
    body.current?.querySelector<HTMLButtonElement>(`button[data-row="${j}"]`)?.focus();
  };
  return (
    <div class={`scroll class-list${node ? "" : " reserve"}`}>
      <table class="list plo-list">
        <colgroup>
          <col class="c-class" />
          <col class="c-hands" />
          {node?.actions.map((a) => (
            <col class="c-action" key={a.action} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" aria-sort={ariaSort("order")}>
              {head("order", "Class")}
            </th>
            <th scope="col" aria-sort={ariaSort("combos")}>
              {head("combos", "Hands")}
            </th>
            {node?.actions.map((a, i) => (
              <th scope="col" key={a.action} aria-sort={ariaSort(`freq:${i}`) ?? ariaSort(`ev:${i}`)}>
                <span class="swatch" style={{ background: colours[i] }} aria-hidden="true" />
                {head(`freq:${i}`, actionLabel(a))}
                {head(`ev:${i}`, "EV")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>
          {rows.map((r, i) => (
            <tr
              key={r.name}
              data-class={r.name}
              data-freqs={JSON.stringify(r.freqs)}
              data-evs={JSON.stringify(r.evs.map((x) => x ?? null))}
              class={selected === r.name ? "selected" : undefined}
            >
              <th scope="row">
                <button
                  type="button"
                  class="class-name"
                  data-row={i}
                  tabIndex={i === row ? 0 : -1}
                  aria-pressed={selected === r.name}
                  onClick={() => {
                    setFocus(i);
                    onSelect(r.name);
                  }}
                  onFocus={() => {
                    setFocus(i);
                    onSelect(r.name);
                  }}
                  onMouseEnter={() => onSelect(r.name)}
                  onKeyDown={(e) => move(e, i)}
                >
                  {r.name}
                </button>
              </th>
              <td>{r.combos}</td>
              {r.freqs.map((f, j) => (
                <td key={j} data-testid="row-action">
                  <span class="freq">{pct(f)}</span>
                  <span class="ev muted">{r.evs[j] === undefined ? "–" : r.evs[j]!.toFixed(3)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {node && rows.length === 0 ? <p class="muted">No class matches.</p> : null}
    </div>
  );
}
