// The one door to the app's Rust side: the only file that calls `invoke`, with one typed function per
// command in src-tauri/src/commands.rs. Shapes mirror src-tauri/src/models.rs; failures are AppErrors.
import { invoke } from "@tauri-apps/api/core";
import { toAppError } from "./errors";

/** Which Garmin Connect the account lives on. */
export type Site = "global" | "cn";

/** The saved session (no secrets). Dates are ISO 8601 strings in UTC. */
export interface SessionView {
  site: Site;
  siteLabel: string;
  connectUrl: string;
  displayName: string | null;
  fullName: string | null;
  capturedAt: string;
  lastRefreshAt: string | null;
  refreshCount: number;
  /** When the short-lived access token expires: a hint only, it renews automatically. */
  accessExpiresAt: string | null;
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

async function call<T>(command: string): Promise<T> {
  try {
    return await invoke<T>(command);
  } catch (raw) {
    throw toAppError(raw);
  }
}

/** The saved session, read from disk (no network). Rejects with `not_signed_in` when there is none. */
export function sessionStatus(): Promise<SessionView> {
  return call<SessionView>("session_status");
}

/** One authenticated call to Garmin proving the session works (renewing it if due). */
export function checkSession(): Promise<CheckResult> {
  return call<CheckResult>("check_session");
}

/** Removes the saved session on this computer, for the app and every garmin-mcp process. */
export function signOut(): Promise<void> {
  return call<void>("sign_out");
}
