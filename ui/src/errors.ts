// Mirror of src-tauri/src/error.rs: every command rejects with `{ code, message }`. The codes are the
// ones the UI branches on; add one here only together with the Rust side.

export const ERROR_CODES = ["not_signed_in", "session_expired", "network", "other"] as const;

/** What the UI does next, as a stable code (Rust `ErrorCode`). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** A command's failure: `message` is the app's own words (what happened and what to do). */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "AppError";
    this.code = code;
  }
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/** Turns whatever `invoke` rejected with into an AppError (a bare string or unknown shape is `other`). */
export function toAppError(raw: unknown): AppError {
  if (raw instanceof AppError) return raw;
  if (typeof raw === "object" && raw !== null) {
    const { code, message } = raw as { code?: unknown; message?: unknown };
    if (isErrorCode(code) && typeof message === "string") return new AppError(code, message);
  }
  if (raw instanceof Error) return new AppError("other", raw.message);
  return new AppError("other", String(raw));
}

/** A short headline for an error, in plain words. */
export function headline(code: ErrorCode): string {
  switch (code) {
    case "not_signed_in":
      return "You are not signed in to Garmin Connect.";
    case "session_expired":
      return "Garmin no longer accepts this sign-in.";
    case "network":
      return "Garmin Connect could not be reached.";
    case "other":
      return "Something went wrong.";
  }
}

/** What to do next, in plain words. For the sign-in codes the view also shows the command to run. */
export function nextStep(code: ErrorCode): string {
  switch (code) {
    case "not_signed_in":
    case "session_expired":
      return "Sign in again. Signing in from this window arrives soon; until then, run the command below in a terminal, then press Check now.";
    case "network":
      return "Check your internet connection (or proxy), then press Check now again.";
    case "other":
      return "The details say what happened. If it keeps happening, please report it.";
  }
}

/** True when the fix is to sign in (again). */
export function needsSignIn(code: ErrorCode): boolean {
  return code === "not_signed_in" || code === "session_expired";
}
