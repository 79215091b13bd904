/**
 * The OAuth sign-in page at /oauth/interaction/<uid>: an MCP client sent the browser here to be allowed to
 * use the tools with the account's plan. Sign in (or create an account), then allow or deny. Allowing makes
 * a key "MCP: <client>" in the account (revocable in the account area) and returns to the client.
 */

import { useEffect, useState } from "preact/hooks";
import { SignIn } from "./account.js";
import { type ApiError, api } from "./api.js";

interface Details {
  uid: string;
  prompt: string;
  client: { id: string; name: string | null; uri: string | null };
  redirectHost: string;
  scopes: string[];
  resource: string;
  account: { id: string; email: string } | null;
  csrfToken: string | null;
}

export function ConsentPage({ uid }: { uid: string }) {
  const [details, setDetails] = useState<Details | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    api<Details>(`/oauth/interaction/${encodeURIComponent(uid)}/details`).then(setDetails, (e: ApiError) =>
      setError(e.message),
    );
  useEffect(() => {
    void load();
  }, [uid]);

  const decide = async (allow: boolean) => {
    if (!details) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api<{ redirectTo: string }>(
        `/oauth/interaction/${encodeURIComponent(uid)}/${allow ? "confirm" : "abort"}`,
        { method: "POST", json: {}, csrf: details.csrfToken },
      );
      window.location.assign(r.redirectTo);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const clientName = details?.client.name ?? details?.client.id ?? "An MCP client";
  return (
    <main class="account">
      <h1>Sign in for an MCP client</h1>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {details === null ? (
        error ? null : (
          <p class="muted">Loading…</p>
        )
      ) : details.account === null ? (
        <SignIn
          intro={`${clientName} asks to use the preflop ranges tools with your account. Sign in, or create an account, to continue.`}
          onSession={() => void load()}
        />
      ) : (
        <section class="card narrow" aria-labelledby="consent-title">
          <h2 id="consent-title">Allow {clientName}?</h2>
          <p>
            <strong data-testid="consent-client">{clientName}</strong> (returning to{" "}
            <code>{details.redirectHost}</code>) asks to use the MCP tools at <code>{details.resource}</code>{" "}
            as <strong>{details.account.email}</strong>.
          </p>
          <p class="muted">
            Its calls count on a key named "MCP: {clientName}" in your account area, where you can see its
            meter and revoke it at any time.
          </p>
          <div class="row">
            <button type="button" class="btn primary" disabled={busy} onClick={() => decide(true)}>
              Allow
            </button>
            <button type="button" class="btn" disabled={busy} onClick={() => decide(false)}>
              Deny
            </button>
          </div>
        </section>
      )}
    </main>
  );
}
