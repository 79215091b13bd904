/**
 * The strict-mode checks the MCP Inspector applies to published tool schemas, plus the closure rules this
 * server holds its inputs to, as a walk over the JSON Schemas a client gets from `tools/list`.
 *
 * Three groups of rules:
 *
 * 1. Portability (the Inspector's tool-schema lint, `core/json/schemaLint.ts` of modelcontextprotocol/inspector,
 *    surfaced by its `--strict` CLI mode and its tool panels), on input and output schemas:
 *    - `root-not-object`: an input schema's root is not `type: "object"`.
 *    - `boolean-schema`: a bare `true`/`false` where a schema object is expected (allowed only as the value
 *      of boolean-valued keywords such as `additionalProperties`).
 *    - `type-union`: `type` spelled as an array (`["number", "string"]`); clients that read `type` as one
 *      string drop the constraint. Use `anyOf` of typed branches.
 *    - `remote-ref`: a `$ref` that is not a local `#...` pointer.
 *    - `unconstrained`: a schema that constrains nothing (`{}` or only annotations), which makes a model guess.
 * 2. Ajv strict mode: the Inspector (v1 `client/src/utils/schemaUtils.ts`, v2 `clients/web/src/utils/
 *    schemaUtils.ts`) compiles every output schema with `new Ajv()`, whose default strict mode logs
 *    `strict mode: ...` warnings (strictTypes: union types, keywords without their applicable type, ...) and
 *    throws on unknown keywords. Run here on input and output schemas with the same default options.
 * 3. Closed inputs (what makes a typo or an out-of-range value fail instead of being ignored), input only:
 *    - `open-object`: an object without `additionalProperties: false`.
 *    - `missing-description`: a property without a description.
 *    - `unbounded-number`: a number or integer without a finite minimum and maximum (zod's default
 *      +-(2^53-1) integer bounds count as unbounded).
 *    - `unbounded-string`: a string without `maxLength` (an `enum` or `const` bounds it).
 *    - `unbounded-array`: an array without `maxItems`.
 */

import { createRequire } from "node:module";

export interface Finding {
  readonly tool: string;
  readonly schema: "inputSchema" | "outputSchema";
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

type Json = Record<string, unknown>;

const isRecord = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

/** Keywords whose value is one schema. */
const SCHEMA_VALUED = [
  "additionalProperties",
  "items",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "contentSchema",
];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords where a boolean is the ordinary spelling (`additionalProperties: false`). */
const BOOLEAN_VALUED = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
]);
/** Keywords that constrain an instance (anything else is an annotation). */
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "if",
  "properties",
  "patternProperties",
  "additionalProperties",
  "required",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "contains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

const SAFE = Number.MAX_SAFE_INTEGER;
const finite = (x: unknown): boolean => typeof x === "number" && Number.isFinite(x) && Math.abs(x) < SAFE;

interface Walk {
  readonly tool: string;
  readonly schema: Finding["schema"];
  readonly findings: Finding[];
}

function add(w: Walk, path: string, rule: string, message: string): void {
  w.findings.push({ tool: w.tool, schema: w.schema, path, rule, message });
}

function typesOf(node: Json): string[] {
  const t = node.type;
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.map(String) : [];
}

function lintNode(w: Walk, node: unknown, path: string, keyword: string | undefined, depth: number): void {
  if (depth > 64) return;
  if (typeof node === "boolean") {
    if (keyword !== undefined && BOOLEAN_VALUED.has(keyword)) {
      if (node === true && w.schema === "inputSchema") {
        add(w, path, "open-object", "additionalProperties: true lets unknown arguments through.");
      }
      return;
    }
    add(w, path, "boolean-schema", `Bare \`${String(node)}\` used where a schema object is expected.`);
    return;
  }
  if (!isRecord(node)) return;

  if (Array.isArray(node.type)) {
    add(
      w,
      path,
      "type-union",
      `\`type\` is an array (${JSON.stringify(node.type)}); use anyOf of typed branches.`,
    );
  }
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) {
    add(w, path, "remote-ref", `$ref "${node.$ref}" is not a local pointer.`);
  }
  if (!Object.keys(node).some((k) => CONSTRAINING.has(k))) {
    add(w, path, "unconstrained", "The schema constrains nothing (no type, enum, const or combinator).");
  }

  if (w.schema === "inputSchema") {
    const types = typesOf(node);
    const bounded = "enum" in node || "const" in node;
    if (types.includes("object") || ("properties" in node && types.length === 0)) {
      if (node.additionalProperties !== false) {
        add(w, path, "open-object", "An object without additionalProperties: false lets typos through.");
      }
      for (const [name, prop] of Object.entries(isRecord(node.properties) ? node.properties : {})) {
        const description = isRecord(prop) ? prop.description : undefined;
        if (typeof description !== "string" || description.trim() === "") {
          add(
            w,
            `${path}/properties/${name}`,
            "missing-description",
            `Property "${name}" has no description.`,
          );
        }
      }
    }
    if ((types.includes("number") || types.includes("integer")) && !bounded) {
      const low = finite(node.minimum) || finite(node.exclusiveMinimum);
      const high = finite(node.maximum) || finite(node.exclusiveMaximum);
      if (!low || !high) add(w, path, "unbounded-number", "A number without a finite minimum and maximum.");
    }
    if (types.includes("string") && !bounded && !finite(node.maxLength)) {
      add(w, path, "unbounded-string", "A string without maxLength.");
    }
    if (types.includes("array") && !finite(node.maxItems)) {
      add(w, path, "unbounded-array", "An array without maxItems.");
    }
  }

  for (const k of SCHEMA_VALUED) {
    if (!(k in node)) continue;
    const value = node[k];
    if (k === "items" && Array.isArray(value)) {
      for (const [i, s] of value.entries()) lintNode(w, s, `${path}/items/${i}`, "items", depth + 1);
    } else {
      lintNode(w, value, `${path}/${k}`, k, depth + 1);
    }
  }
  for (const k of SCHEMA_LISTS) {
    const value = node[k];
    if (!Array.isArray(value)) continue;
    for (const [i, s] of value.entries()) lintNode(w, s, `${path}/${k}/${i}`, k, depth + 1);
  }
  for (const k of SCHEMA_MAPS) {
    const value = node[k];
    if (!isRecord(value)) continue;
    for (const [name, s] of Object.entries(value)) lintNode(w, s, `${path}/${k}/${name}`, k, depth + 1);
  }
}

/** Portability and closure findings for one tool's published schemas. */
export function lintTool(tool: { name: string; inputSchema: unknown; outputSchema?: unknown }): Finding[] {
  const findings: Finding[] = [];
  const input: Walk = { tool: tool.name, schema: "inputSchema", findings };
  if (!isRecord(tool.inputSchema) || tool.inputSchema.type !== "object") {
    add(input, "#", "root-not-object", 'The input schema root must be `type: "object"`.');
  }
  lintNode(input, tool.inputSchema, "#", undefined, 0);
  if (tool.outputSchema !== undefined) {
    lintNode({ tool: tool.name, schema: "outputSchema", findings }, tool.outputSchema, "#", undefined, 0);
  }
  return findings;
}

interface AjvLike {
  compile(schema: unknown): unknown;
}
type AjvClass = new (options: {
  logger: {
    log: (...a: unknown[]) => void;
    warn: (...a: unknown[]) => void;
    error: (...a: unknown[]) => void;
  };
}) => AjvLike;

/**
 * Ajv as the Inspector runs it (`new Ajv()`, default strict mode), loaded from the SDK's own dependency: the
 * SDK client validates structured content with the same Ajv major version.
 */
function loadAjv(): AjvClass {
  const require = createRequire(import.meta.resolve("@modelcontextprotocol/sdk/validation/ajv"));
  const mod = require("ajv") as { default?: AjvClass } & AjvClass;
  return mod.default ?? mod;
}

/** Ajv strict-mode warnings (and compile errors) for one tool's published schemas. */
export function ajvStrictFindings(tool: {
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}): Finding[] {
  const Ajv = loadAjv();
  const findings: Finding[] = [];
  for (const schema of ["inputSchema", "outputSchema"] as const) {
    const value = tool[schema];
    if (value === undefined) continue;
    const messages: string[] = [];
    const collect = (...args: unknown[]) => messages.push(args.map(String).join(" "));
    const ajv = new Ajv({ logger: { log: () => {}, warn: collect, error: collect } });
    try {
      ajv.compile(value);
    } catch (error) {
      messages.push(`compile error: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const message of messages) {
      findings.push({ tool: tool.name, schema, path: "#", rule: "ajv-strict", message });
    }
  }
  return findings;
}

/** Every finding for every tool: the strict-mode warning count is `length`. */
export function strictFindings(
  tools: ReadonlyArray<{ name: string; inputSchema: unknown; outputSchema?: unknown }>,
): Finding[] {
  return tools.flatMap((t) => [...lintTool(t), ...ajvStrictFindings(t)]);
}
