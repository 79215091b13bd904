/**
 * The account area at /account: sign up or sign in (a session cookie the API sets, HTTP-only), then the
 * account's API keys (create: the secret is shown once; revoke), each key's meter (today and the last 30
 * days), and the feature requests and queued solves filed with the account's keys. Every change sends the
 * session's CSRF token.
 */

import { useEffect, useState } from "preact/hooks";
import { type ApiError, api } from "./api.js";
import { forgetViewerKey, setViewerKey } from "./keystore.js";
import { linkClick } from "./router.js";

interface Account {
  id: string;
  email: string;
  createdAt: string;
}

interface Session {
  account: Account;
  csrfToken: string;
  expiresAt: string;
}

interface KeyInfo {
  id: string;
  prefix: string;
  name: string;
  plan: string;
  dailyQuota: number | null;
  createdAt: string;
  revokedAt: string | null;
  usedToday: number;
  usage: { day: string; count: number }[];
}

interface RequestInfo {
  id: string;
  kind: string;
  text: string;
  game: string | null;
  stack: number | null;
  spot: string | null;
  status: string;
  createdAt: string;
  keyPrefix: string;
}

interface SolveInfo {
  id: string;
  status: string;
  game: string;
  stack: number;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
  keyPrefix: string;
}

type State = { kind: "loading" } | { kind: "signed-out" } | { kind: "signed-in"; session: Session };

const day = (iso: string) => iso.slice(0, 10);

export function AccountPage() {
  const [state, setState] = useState<State>({ kind: "loading" });
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    api<Session>("/api/v1/account").then(
      (session) => setState({ kind: "signed-in", session }),
      (e: ApiError) => {
        if (e.status === 401) setState({ kind: "signed-out" });
        else setLoadError(e.message);
      },
    );
  }, []);

  return (
    <main class="account">
      <h1>Account</h1>
      {loadError ? (
        <p role="alert" class="error">
          {loadError}
        </p>
      ) : state.kind === "loading" ? (
        <p class="muted">Loading…</p>
      ) : state.kind === "signed-out" ? (
        <SignIn onSession={(session) => setState({ kind: "signed-in", session })} />
      ) : (
        <Dashboard session={state.session} onSignOut={() => setState({ kind: "signed-out" })} />
      )}
    </main>
  );
}

export function SignIn({ onSession, intro }: { onSession: (s: Session) => void; intro?: string }) {
  const [mode, setMode] = useState<"signin" | "signup">("signin");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    try {
      const session = await api<Session>(`/api/v1/account/${mode}`, {
        method: "POST",
        json: { email: form.get("email"), password: form.get("password") },
      });
      onSession(session);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card narrow" aria-labelledby="signin-title">
      <h2 id="signin-title">{mode === "signin" ? "Sign in" : "Create an account"}</h2>
      {intro ? <p>{intro}</p> : null}
      <form class="stack" onSubmit={submit}>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required maxLength={254} />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === "signin" ? "current-password" : "new-password"}
            required
            minLength={mode === "signup" ? 10 : undefined}
            maxLength={256}
          />
          {mode === "signup" ? <span class="muted">At least 10 characters.</span> : null}
        </label>
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
        <button class="btn primary" type="submit" disabled={busy}>
          {mode === "signin" ? "Sign in" : "Create account"}
        </button>
      </form>
      <p>
        {mode === "signin" ? "No account yet? " : "Have an account? "}
        <button
          type="button"
          class="linkish"
          onClick={() => {
            setError(null);
            setMode(mode === "signin" ? "signup" : "signin");
          }}
        >
          {mode === "signin" ? "Create an account" : "Sign in instead"}
        </button>
      </p>
    </section>
  );
}

function Dashboard({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const csrf = session.csrfToken;
  const [error, setError] = useState<string | null>(null);

  const signOut = async () => {
    try {
      await api("/api/v1/account/signout", { method: "POST", json: {}, csrf });
      // The viewer's key is this account's: it does not stay in the browser after signing out.
      forgetViewerKey();
      onSignOut();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <>
      <section class="card who">
        <p>
          Signed in as <strong data-testid="account-email">{session.account.email}</strong>
          <span class="muted"> · since {day(session.account.createdAt)}</span>
        </p>
        <button type="button" class="btn" onClick={signOut}>
          Sign out
        </button>
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
      </section>
      <Keys csrf={csrf} />
      <Requests />
      <Solves />
    </>
  );
}

function Keys({ csrf }: { csrf: string }) {
  const [keys, setKeys] = useState<KeyInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ key: KeyInfo; secret: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [usedInViewer, setUsedInViewer] = useState(false);

  const reload = () =>
    api<{ keys: KeyInfo[] }>("/api/v1/account/keys").then(
      (r) => setKeys(r.keys),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    void reload();
  }, []);

  const create = async (e: Event) => {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const name = String(new FormData(formEl).get("keyName") ?? "");
    setError(null);
    try {
      const r = await api<{ key: KeyInfo; secret: string }>("/api/v1/account/keys", {
        method: "POST",
        json: { name },
        csrf,
      });
      setCreated(r);
      setUsedInViewer(false);
      formEl.reset();
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const revoke = async (id: string) => {
    setError(null);
    try {
      await api(`/api/v1/account/keys/${id}`, { method: "DELETE", csrf });
      forgetViewerKey(id);
      setConfirming(null);
      if (created?.key.id === id) setCreated(null);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">
        Send a key as <code>Authorization: Bearer pr_…</code>. Calls with a key count on its meter, per UTC
        day.
      </p>
      <form class="inline" onSubmit={create}>
        <label>
          New key name
          <input name="keyName" required maxLength={100} placeholder="e.g. laptop" />
        </label>
        <button class="btn primary" type="submit">
          Create key
        </button>
      </form>
      {created ? (
        <div class="newkey" role="status">
          <p>
            Your new key <strong>{created.key.name}</strong>. Copy it now: it is shown only once.
          </p>
          <code data-testid="new-key">{created.secret}</code>
          <div class="row">
            <button
              type="button"
              class="btn"
              onClick={() => void navigator.clipboard?.writeText(created.secret).catch(() => {})}
            >
              Copy
            </button>
            <button
              type="button"
              class="btn"
              onClick={() => {
                setViewerKey(created.secret);
                setUsedInViewer(true);
              }}
            >
              Use in the range viewer
            </button>
            {usedInViewer ? (
              <span>
                The{" "}
                <a href="/" onClick={linkClick}>
                  viewer
                </a>{" "}
                now sends this key for keyed games.
              </span>
            ) : null}
          </div>
        </div>
      ) : null}
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {keys === null ? (
        <p class="muted">Loading keys…</p>
      ) : keys.length === 0 ? (
        <p class="muted">No keys yet.</p>
      ) : (
        <div class="scroll">
          <table class="list" data-testid="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Today</th>
                <th scope="col">Last 30 days</th>
                <th scope="col">
                  <span class="visually-hidden">Status</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key={k.id} class={k.revokedAt ? "revoked" : ""}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.prefix}_…</code>
                  </td>
                  <td>{day(k.createdAt)}</td>
                  <td data-testid="used-today">
                    {k.usedToday}
                    {k.dailyQuota === null ? "" : ` / ${k.dailyQuota}`}
                  </td>
                  <td>
                    <Meter usage={k.usage} />
                  </td>
                  <td>
                    {k.revokedAt ? (
                      <span class="muted">revoked {day(k.revokedAt)}</span>
                    ) : confirming === k.id ? (
                      <span class="row">
                        <button type="button" class="btn danger" onClick={() => revoke(k.id)}>
                          Confirm revoke
                        </button>
                        <button type="button" class="btn" onClick={() => setConfirming(null)}>
                          Keep
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        class="btn"
                        aria-label={`Revoke ${k.name}`}
                        onClick={() => setConfirming(k.id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Calls per day over the last 30 days, as bars, with the total for screen readers. */
function Meter({ usage }: { usage: { day: string; count: number }[] }) {
  const days: { day: string; count: number }[] = [];
  const today = new Date();
  for (let i = 29; i >= 0; i--) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
    const iso = d.toISOString().slice(0, 10);
    days.push({ day: iso, count: usage.find((u) => u.day === iso)?.count ?? 0 });
  }
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((s, d) => s + d.count, 0);
  return (
    <span class="meter" role="img" aria-label={`${total} calls in the last 30 days`} title={`${total} calls`}>
      {days.map((d) => (
        <span
          key={d.day}
          style={{ height: `${Math.round((d.count / max) * 100)}%` }}
          title={`${d.day}: ${d.count}`}
        />
      ))}
      <span class="total">{total}</span>
    </span>
  );
}

function Requests() {
  const [requests, setRequests] = useState<RequestInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ requests: RequestInfo[] }>("/api/v1/account/requests").then(
      (r) => setRequests(r.requests),
      (e: Error) => setError(e.message),
    );
  }, []);
  return (
    <section class="card" aria-labelledby="requests-title">
      <h2 id="requests-title">Feature and data requests</h2>
      <p class="muted">
        Filed with your keys through <code>POST /api/v1/requests</code> or the MCP tool{" "}
        <code>submit_request</code>.
      </p>
      {error ? <p class="error">{error}</p> : null}
      {requests === null ? null : requests.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul class="plain">
          {requests.map((r) => (
            <li key={r.id}>
              <strong>{r.kind}</strong> · {r.status} · {day(r.createdAt)}{" "}
              <span class="muted">({r.keyPrefix})</span>
              <br />
              {r.text}
              {r.game ? (
                <span class="muted">
                  {" "}
                  · {[r.game, r.stack ? `${r.stack}bb` : null, r.spot].filter(Boolean).join(" ")}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Solves() {
  const [solves, setSolves] = useState<SolveInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ solves: SolveInfo[] }>("/api/v1/account/solves").then(
      (r) => setSolves(r.solves),
      (e: ApiError) =>
        setError(e.status === 404 ? "The solve queue is not enabled on this server." : e.message),
    );
  }, []);
  return (
    <section class="card" aria-labelledby="solves-title">
      <h2 id="solves-title">Queued solves</h2>
      <p class="muted">
        Queued with your keys through <code>POST /api/v1/solves</code> or the MCP tool{" "}
        <code>enqueue_solve</code>.
      </p>
      {error ? <p class="muted">{error}</p> : null}
      {solves === null ? null : solves.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul class="plain">
          {solves.map((s) => (
            <li key={s.id}>
              <code>{s.id}</code> · {s.game} {s.stack}bb · <strong>{s.status}</strong> · {day(s.createdAt)}{" "}
              <span class="muted">({s.keyPrefix})</span>
              {s.error ? <span class="error"> · {s.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
