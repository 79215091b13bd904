import { render } from "preact";
import { linkClick, useLocation } from "./router.js";
import "./styles.css";
import { Viewer } from "./viewer.js";

function App() {
  const url = useLocation();
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
          <a href="/" onClick={linkClick} aria-current={url.pathname === "/" ? "page" : undefined}>
            Ranges
          </a>
          <a href="/api/v1/openapi.json">API</a>
        </nav>
      </header>
      <div id="content">
        <Viewer url={url} />
      </div>
    </>
  );
}

render(<App />, document.getElementById("app")!);
