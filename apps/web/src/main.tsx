import { render } from "preact";
import { AccountPage } from "./account.js";
import { ConsentPage } from "./consent.js";
import { PostflopPage } from "./postflop.js";
import { linkClick, useLocation } from "./router.js";
import "./styles.css";
import { Viewer } from "./viewer.js";

function App() {
  const url = useLocation();
  const consent = /^\/oauth\/interaction\/([A-Za-z0-9_-]+)$/.exec(url.pathname)?.[1];
  const page = consent
    ? "consent"
    : url.pathname.startsWith("/account")
      ? "account"
      : url.pathname.startsWith("/postflop")
        ? "postflop"
        : "viewer";
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/" onClick={linkClick}>
          Preflop ranges
        </a>
        <nav aria-label="Site">
          <a href="/" onClick={linkClick} aria-current={page === "viewer" ? "page" : undefined}>
            Ranges
          </a>
          <a href="/postflop" onClick={linkClick} aria-current={page === "postflop" ? "page" : undefined}>
            Postflop
          </a>
          <a href="/account" onClick={linkClick} aria-current={page === "account" ? "page" : undefined}>
            Account
          </a>
          <a href="/api/v1/openapi.json">API</a>
        </nav>
      </header>
      <div id="content">
        {consent ? (
          <ConsentPage uid={consent} />
        ) : page === "account" ? (
          <AccountPage />
        ) : page === "postflop" ? (
          <PostflopPage url={url} />
        ) : (
          <Viewer url={url} />
        )}
      </div>
    </>
  );
}

render(<App />, document.getElementById("app")!);
