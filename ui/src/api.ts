// The one door to the app's Rust side: the only file that calls `invoke`, with one typed function per
// command in src-tauri/src/commands.rs. Shapes mirror src-tauri/src/models.rs; failures are AppErrors.
import { invoke } from "@tauri-apps/api/core";
import { toAppError } from "./errors";

/** Which Garmin Connect the account lives on (the demo account imitates `global`). */
export type Site = "global" | "cn";

/** What the site picker offers: a Garmin site, or the demo account (offline sample data). */
export type SiteChoice = Site | "demo";

/** The saved session (no secrets). Dates are ISO 8601 strings in UTC. */
export interface SessionView {
  site: Site;
  /** The demo account: sample data from the fake Garmin inside the app. Label it everywhere. */
  demo: boolean;
  siteLabel: string;
  connectUrl: string;
  displayName: string | null;
  fullName: string | null;
  capturedAt: string;
  lastRefreshAt: string | null;
  refreshCount: number;
  /** When the short-lived access token expires: a hint only, it renews automatically. */
  accessExpiresAt: string | null;
  /** When the sign-in itself should end: Garmin's stated expiry, or an estimate. */
  sessionExpiresAt: string;
  /** True when Garmin stated `sessionExpiresAt`, false when it is an estimate. */
  sessionExpiryStated: boolean;
}

/** Who Garmin says the account is. */
export interface AccountView {
  displayName: string;
  fullName: string | null;
}

/** Garmin accepted the session. */
export interface CheckResult {
  account: AccountView;
  session: SessionView;
}

/** Cookies copied from a signed-in browser, for the "paste cookies" fallback. */
export interface PastedCookies {
  site: Site;
  /** The `Cookie` request header, or a cookie list (JSON export or cookies.txt). */
  cookies: string;
  /** The `connect-csrf-token` request header. */
  csrfToken: string;
  /** The browser's User-Agent; empty for a common desktop browser's. */
  userAgent: string;
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (raw) {
    throw toAppError(raw);
  }
}

/** The saved session of the account shown, read from disk (no network). Rejects with `not_signed_in`. */
export function sessionStatus(): Promise<SessionView> {
  return call<SessionView>("session_status");
}

/** One authenticated call to Garmin proving the session works (renewing it if due). */
export function checkSession(): Promise<CheckResult> {
  return call<CheckResult>("check_session");
}

/** Removes the saved session on this computer (in the demo account: leaves the demo). */
export function signOut(): Promise<void> {
  return call<void>("sign_out");
}

/**
 * Opens the sign-in window (titled `windowTitle`) on the site's sign-in page and resolves once the
 * session is saved; rejects with `sign_in_closed`, `wrong_site`, `sign_in_rejected`, … otherwise.
 */
export function signIn(site: SiteChoice, windowTitle: string): Promise<SessionView> {
  return call<SessionView>("sign_in", { site, windowTitle });
}

/** Closes the sign-in window; the pending `signIn` rejects with `sign_in_closed`. */
export function cancelSignIn(): Promise<void> {
  return call<void>("cancel_sign_in");
}

/** Checks pasted cookies with Garmin and saves them as the session. */
export function signInWithCookies(pasted: PastedCookies): Promise<SessionView> {
  return call<SessionView>("sign_in_with_cookies", {
    site: pasted.site,
    cookies: pasted.cookies,
    csrfToken: pasted.csrfToken,
    userAgent: pasted.userAgent.trim() || null,
  });
}
