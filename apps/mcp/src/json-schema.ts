/**
 * The portable form of the JSON Schemas this server publishes in `tools/list`.
 *
 * zod writes a nullable or a union of bare types as a `type` array (`"type": ["number", "null"]`) and an
 * unknown value as `{}`. Both are legal JSON Schema, but the MCP Inspector's strict mode flags them
 * (`type-union`: clients that read `type` as one string drop the constraint; `unconstrained`: a schema that
 * says nothing makes a model guess). This rewrite keeps the meaning and spells them portably:
 *
 * - a `type` array becomes an `anyOf` of one typed branch per member, each carrying the keywords that apply
 *   to its type (`maxLength` to the string branch, `minimum` to the number branch), annotations and `enum`
 *   staying on the node;
 * - a schema that constrains nothing (`{}`, `true`, or only annotations) becomes "any JSON value": an `anyOf`
 *   of the six JSON types, with its annotations kept.
 *
 * Every other keyword is copied as is, and the rewrite recurses into every subschema position.
 */

type Json = Record<string, unknown>;

const isRecord = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

/** Keywords whose value is one schema. */
const SCHEMA_VALUED = new Set([
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
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords where a boolean is the ordinary spelling. */
const BOOLEAN_VALUED = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
]);

/** Keywords that apply to one instance type, by type. */
const KEYWORDS_BY_TYPE: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentSchemas",
    "dependentRequired",
    "unevaluatedProperties",
  ],
  array: [
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
  ],
};
const TYPED_KEYWORDS = new Set(Object.values(KEYWORDS_BY_TYPE).flat());

/** Keywords that constrain an instance; a schema with none of them accepts anything. */
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
  ...TYPED_KEYWORDS,
]);

/** Any JSON value, spelled with explicit types. */
const anyJsonValue = (): Json => ({
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: "array" },
    { type: "object" },
  ],
});

function rewriteChildren(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_VALUED.has(key)) {
      if (key === "items" && Array.isArray(value)) out[key] = value.map((s) => rewrite(s));
      else if (typeof value === "boolean" && BOOLEAN_VALUED.has(key)) out[key] = value;
      else out[key] = rewrite(value);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((s) => rewrite(s));
    } else if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, rewrite(s)]));
    } else {
      out[key] = value;
    }
  }
  return out;
}

function rewrite(schema: unknown): unknown {
  if (schema === true) return anyJsonValue();
  if (!isRecord(schema)) return schema;
  const node = rewriteChildren(schema);
  if (!Object.keys(node).some((k) => CONSTRAINING.has(k))) return { ...node, ...anyJsonValue() };
  if (!Array.isArray(node.type)) return node;

  const types = node.type.map(String);
  const shared: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== "type" && !TYPED_KEYWORDS.has(key)) shared[key] = value;
  }
  const branches = types.map((type) => {
    const branch: Json = { type };
    for (const key of KEYWORDS_BY_TYPE[type] ?? []) if (key in node) branch[key] = node[key];
    return branch;
  });
  if (branches.length === 1) return { ...shared, ...branches[0] };
  if (shared.anyOf !== undefined) {
    // Already an anyOf: both must hold.
    const { anyOf, ...rest } = shared;
    return { ...rest, allOf: [{ anyOf }, { anyOf: branches }] };
  }
  return { ...shared, anyOf: branches };
}

/** The portable form of a published schema (input or output); the input is left untouched. */
export function portableJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return rewrite(schema) as Record<string, unknown>;
}
