export { AccessStore } from "./access-store.js";
export type { AccessDecision, AccessOptions, AuthorizeInput } from "./access-types.js";
export { AUTH_REALM, DEFAULT_KEYLESS_DAILY_LIMIT, MAX_LIVE_KEYS_PER_ACCOUNT } from "./access-types.js";
export type { Account, AccountStoreOptions, NewSession, SessionInfo } from "./accounts.js";
export {
  AccountStore,
  DEFAULT_FAILED_SIGNINS_PER_ACCOUNT,
  DEFAULT_FAILED_SIGNINS_PER_ADDRESS,
  DEFAULT_FAILED_SIGNINS_PER_IP,
  DEFAULT_SESSION_SECONDS,
  DEFAULT_SIGNUPS_PER_IP,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  sameSecret,
} from "./accounts.js";
export type { TrustProxy } from "./client-ip.js";
export { clientAddress, compileTrustProxy, normalizeAddress } from "./client-ip.js";
export { secondsToUtcMidnight, utcDay } from "./clock.js";
export type { AccountDatabase, AccountTables, Backend, DatabaseTarget } from "./db/database.js";
export { openAccountDatabase, redactUrl } from "./db/database.js";
export type {
  HandFields,
  HandListOptions,
  HandQuery,
  HandRow,
  HandStoreOptions,
  InsertResult,
  StoredHand,
  UploadLink,
} from "./hand-store.js";
export { DEFAULT_MAX_HANDS_PER_KEY, DEFAULT_UPLOAD_LINK_SECONDS, HandStore } from "./hand-store.js";
export { ipSubject } from "./ip.js";
export type { ApiKeyInfo, CreatedKey, CreateKeyInput, KeyUsageDay } from "./key-admin.js";
export { DEFAULT_PLAN } from "./key-admin.js";
export type { ParsedApiKey } from "./keys.js";
export { API_KEY_PREFIX, parseApiKey } from "./keys.js";
export type { OAuthAdapter, OAuthPayload, OAuthRecordsOptions } from "./oauth-records.js";
export { DEFAULT_UNUSED_CLIENT_DAYS, OAuthRecords } from "./oauth-records.js";
export type { RequestInput, RequestKind, StoredRequest } from "./requests.js";
export { REQUEST_KINDS, REQUESTS_PER_DAY } from "./requests.js";
