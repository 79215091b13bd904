/**
 * The account area's bodies (`/api/v1/account/...`, used by the site's /account page) and the OAuth
 * protected resource and authorization server metadata documents. The API validates request bodies with
 * these schemas and builds its answers as their types.
 */

import { z } from "zod";
import { FeatureRequestSchema, SCHEMA_VERSION, SolveJobSchema } from "./responses.js";

/** Longest email an account may have (RFC 5321's path limit). */
const MAX_EMAIL_LENGTH = 254;
/** Password length bounds of a new account (`@ranges/access` checks the same). */
const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 256;
const MAX_KEY_NAME_LENGTH = 100;

const email = z
  .string()
  .max(MAX_EMAIL_LENGTH, `"email" may have at most ${MAX_EMAIL_LENGTH} characters.`)
  .describe(
    "The account's email address, e.g. you@example.com (compared trimmed and in lower case; one @ and a dot in the domain).",
  );

/** The body of `POST /api/v1/account/signup`. */
export const SignUpBodySchema = z
  .strictObject({
    email,
    password: z
      .string()
      .min(
        MIN_PASSWORD_LENGTH,
        `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters (a few words make a good one).`,
      )
      .max(MAX_PASSWORD_LENGTH, `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`)
      .describe(
        `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters; stored only as an argon2id hash.`,
      ),
  })
  .describe("A new account's email and password.");

/** The body of `POST /api/v1/account/signin`. */
export const SignInBodySchema = z
  .strictObject({
    email,
    password: z
      .string()
      .max(MAX_PASSWORD_LENGTH, `A password has at most ${MAX_PASSWORD_LENGTH} characters.`)
      .describe("The account's password."),
  })
  .describe("An account's email and password.");

/** The body of `POST /api/v1/account/signout`: an empty JSON object. */
export const SignOutBodySchema = z.strictObject({}).describe("An empty JSON object, `{}`.");

/** The body of `POST /api/v1/account/keys`. */
export const CreateKeyBodySchema = z
  .strictObject({
    name: z
      .string()
      .min(1, `A key needs a "name" of 1 to ${MAX_KEY_NAME_LENGTH} characters, e.g. "laptop".`)
      .max(
        MAX_KEY_NAME_LENGTH,
        `A key needs a "name" of 1 to ${MAX_KEY_NAME_LENGTH} characters, e.g. "laptop".`,
      )
      .describe(`What the key is for, 1 to ${MAX_KEY_NAME_LENGTH} characters after trimming, e.g. "laptop".`),
  })
  .describe("A new key's name.");

export const AccountSchema = z.object({
  id: z.string().describe("`acc_` and 16 hex characters."),
  email: z.string().describe("The email, trimmed and in lower case."),
  createdAt: z.string().describe("ISO 8601 UTC time of sign-up."),
});

/** A signed-in session: `GET /api/v1/account`, and the answer of sign-up (201) and sign-in (200). */
export const AccountSessionSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  account: AccountSchema,
  csrfToken: z
    .string()
    .describe(
      "The session's CSRF token: send it as `X-CSRF-Token` on every POST and DELETE of the account area while signed in.",
    ),
  expiresAt: z.string().describe("ISO 8601 UTC time the session ends (30 days after sign-in)."),
});

/** Calls counted on a key's meter on one UTC day. */
export const KeyUsageDaySchema = z.object({
  day: z.string().describe("`YYYY-MM-DD` (UTC)."),
  count: z.number().int().min(0),
});

/** An API key as its account sees it (never its secret). */
export const AccountKeySchema = z.object({
  id: z.string().describe("12 hex characters: the key is `pr_<id>_<secret>`."),
  prefix: z.string().describe("`pr_<id>`, the public part that names the key."),
  name: z.string(),
  plan: z.string().describe('Plan label, e.g. "standard".'),
  dailyQuota: z.number().int().min(0).nullable().describe("Calls per UTC day; null: unmetered."),
  createdAt: z.string().describe("ISO 8601 UTC time of creation."),
  revokedAt: z.string().nullable().describe("ISO 8601 UTC time of revocation; null while live."),
  usedToday: z.number().int().min(0).describe("Calls counted on the key's meter in the current UTC day."),
  usage: z
    .array(KeyUsageDaySchema)
    .describe("Calls per UTC day over the last 30 days (days without calls left out), oldest first."),
});

/** `GET /api/v1/account/keys`: the account's keys, oldest first, with their meters. */
export const AccountKeyListSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  keys: z.array(AccountKeySchema),
});

/** `POST /api/v1/account/keys` (201): the new key and, in this answer only, its secret. */
export const AccountKeyCreatedSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  key: AccountKeySchema,
  secret: z.string().describe("The whole key, `pr_<id>_<secret>`: shown once (only its hash is stored)."),
});

/** `DELETE /api/v1/account/keys/{id}`: the key after revocation. */
export const AccountKeyAnswerSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  key: AccountKeySchema,
});

/** `GET /api/v1/account/requests`: requests filed with the account's keys, newest first (at most 100). */
export const AccountRequestListSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  requests: z.array(
    FeatureRequestSchema.extend({
      keyPrefix: z.string().describe("`pr_<id>` of the key the request was filed with."),
    }),
  ),
});

/** `GET /api/v1/account/solves`: solves queued with the account's keys, newest first (at most 100). */
export const AccountSolveListSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  solves: z.array(
    SolveJobSchema.extend({
      keyPrefix: z.string().describe("`pr_<id>` of the key the solve was queued with."),
    }),
  ),
});

/** OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP endpoint. */
export const ProtectedResourceMetadataSchema = z.object({
  resource: z.string().describe("The MCP endpoint, `<origin>/api/mcp`: the resource tokens are issued for."),
  authorization_servers: z.array(z.string()).describe("The issuer of this server's authorization server."),
  scopes_supported: z.array(z.string()).describe('`["mcp"]`: use the tools with the account\'s plan.'),
  bearer_methods_supported: z.array(z.string()).describe('`["header"]`: `Authorization: Bearer <token>`.'),
  resource_name: z.string(),
});

/**
 * OAuth 2.0 Authorization Server Metadata (RFC 8414; the same document as OpenID Connect Discovery), as
 * oidc-provider writes it. The members listed are the ones an MCP client uses; others may follow.
 */
export const AuthorizationServerMetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string().describe("`<issuer>/oauth/authorize`."),
  token_endpoint: z.string().describe("`<issuer>/oauth/token`."),
  registration_endpoint: z
    .string()
    .describe("`<issuer>/oauth/register`: dynamic client registration (RFC 7591)."),
  revocation_endpoint: z.string().describe("`<issuer>/oauth/revoke` (RFC 7009)."),
  jwks_uri: z.string(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()).describe('`["code"]`.'),
  grant_types_supported: z.array(z.string()).describe('`["authorization_code", "refresh_token"]`.'),
  code_challenge_methods_supported: z.array(z.string()).describe('`["S256"]`: PKCE is required.'),
  token_endpoint_auth_methods_supported: z.array(z.string()),
});

export type SignUpBody = z.infer<typeof SignUpBodySchema>;
export type SignInBody = z.infer<typeof SignInBodySchema>;
export type CreateKeyBody = z.infer<typeof CreateKeyBodySchema>;
export type Account = z.infer<typeof AccountSchema>;
export type AccountSession = z.infer<typeof AccountSessionSchema>;
export type AccountKey = z.infer<typeof AccountKeySchema>;
export type AccountKeyList = z.infer<typeof AccountKeyListSchema>;
export type AccountKeyCreated = z.infer<typeof AccountKeyCreatedSchema>;
export type AccountKeyAnswer = z.infer<typeof AccountKeyAnswerSchema>;
export type AccountRequestList = z.infer<typeof AccountRequestListSchema>;
export type AccountSolveList = z.infer<typeof AccountSolveListSchema>;
export type ProtectedResourceMetadata = z.infer<typeof ProtectedResourceMetadataSchema>;
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadataSchema>;
