export type {
  AccessDecision,
  AccessOptions,
  ApiKeyInfo,
  AuthorizeInput,
  CreatedKey,
  CreateKeyInput,
} from "./access-store.js";
export { AccessStore, AUTH_REALM, DEFAULT_KEYLESS_DAILY_LIMIT, DEFAULT_PLAN } from "./access-store.js";
export type { TrustProxy } from "./client-ip.js";
export { clientAddress, compileTrustProxy, normalizeAddress } from "./client-ip.js";
export { secondsToUtcMidnight, utcDay } from "./clock.js";
export { ipSubject } from "./ip.js";
export type { ParsedApiKey } from "./keys.js";
export { API_KEY_PREFIX, parseApiKey } from "./keys.js";
