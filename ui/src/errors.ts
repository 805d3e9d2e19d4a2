// Every command rejects with `{ code, message }` (src-tauri/src/error.rs). The codes and their type
// are generated from Rust's `ErrorCode` (generated/bindings.ts); a new code fails the build here
// until it has a headline and a next step. `message` is the app's own words in English (the
// details); the headline and next step come from the i18n strings.
import { ERROR_CODES, type ErrorCode } from "./generated/bindings";
import { t } from "./i18n.svelte";

export { ERROR_CODES, type ErrorCode };

/** A command's failure: `message` says what happened and what to do. */
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

/** A short headline for an error, in plain words, in the window's language. */
export function headline(code: ErrorCode): string {
  switch (code) {
    case "not_signed_in":
      return t("error.not_signed_in.title");
    case "session_expired":
      return t("error.session_expired.title");
    case "network":
      return t("error.network.title");
    case "sign_in_closed":
      return t("error.sign_in_closed.title");
    case "wrong_site":
      return t("error.wrong_site.title");
    case "sign_in_rejected":
      return t("error.sign_in_rejected.title");
    case "invalid_input":
      return t("error.invalid_input.title");
    case "other":
      return t("error.other.title");
  }
}

/** What to do next, in plain words, in the window's language. */
export function nextStep(code: ErrorCode): string {
  switch (code) {
    case "not_signed_in":
      return t("error.not_signed_in.next");
    case "session_expired":
      return t("error.session_expired.next");
    case "network":
      return t("error.network.next");
    case "sign_in_closed":
      return t("error.sign_in_closed.next");
    case "wrong_site":
      return t("error.wrong_site.next");
    case "sign_in_rejected":
      return t("error.sign_in_rejected.next");
    case "invalid_input":
      return t("error.invalid_input.next");
    case "other":
      return t("error.other.next");
  }
}

/** True when the fix is to sign in (again). */
export function needsSignIn(code: ErrorCode): boolean {
  return code === "not_signed_in" || code === "session_expired";
}
