// The one door to the app's Rust side: the only file that calls `invoke`, with one typed function per
// command in src-tauri/src/commands.rs. The shapes are generated from the Rust types
// (generated/bindings.ts, see src-tauri/src/typescript.rs); failures are AppErrors.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type {
  CheckResult,
  ClientsView,
  ConfigEditView,
  Decision,
  DoneView,
  EditorGrammar,
  ExerciseHit,
  ExerciseQuery,
  FactForm as FactFormSent,
  FactView,
  PendingRequest,
  RemoteSettings,
  RemoteView,
  SessionView,
  Site,
  SiteChoice,
  SnippetView,
  ToolCheckReport,
  ChangeRowView,
  HistoryStatusView,
  PersonalKeyView,
  Preferences,
  PreferencesUpdate,
  SyncView,
  TrainingView,
  WorkoutPreview,
} from "./generated/bindings";
import { toAppError } from "./errors";

export type * from "./generated/bindings";
export { FACT_KINDS } from "./generated/bindings";

/** A request from an assistant to confirm a write (the `confirm` kind of PendingRequest). */
export type ConfirmRequest = Extract<PendingRequest, { kind: "confirm" }>;

/** An assistant found no usable session and asks the person to sign in. */
export type SignInRequest = Extract<PendingRequest, { kind: "sign_in" }>;

/** A fact as the form sends it: every field (for an edit, "" or 0 removes one). */
export type FactForm = { [K in keyof FactFormSent]-?: NonNullable<FactFormSent[K]> };

/** Cookies copied from a signed-in browser, for the "paste cookies" fallback (sent as the command's arguments). */
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

/** The switches a row puts into the entry (`garmin-mcp configure --demo --readonly`); false takes one out. */
export interface EntryOptions {
  demo: boolean;
  readonly: boolean;
}

/** Every known AI client: installed?, configured?, its config file. */
export function listClients(): Promise<ClientsView> {
  return call<ClientsView>("list_clients");
}

/** Adds (or updates) the `garmin` server in the client's config; other servers stay. */
export function configureClient(id: string, options: EntryOptions): Promise<ConfigEditView> {
  return call<ConfigEditView>("configure_client", { id, ...options });
}

/** Takes the `garmin` server out of the client's config; other servers stay. */
export function removeClient(id: string): Promise<ConfigEditView> {
  return call<ConfigEditView>("remove_client", { id });
}

/** Opens the host's own "add this server" dialog through its install link (built by the Rust side
 * from the bundled server and the switches); answers what happened, in words. */
export function openInstallLink(host: string, options: EntryOptions): Promise<string> {
  return call<string>("open_install_link", { host, ...options });
}

/** The exact snippet for setting the client up by hand, with the row's switches. */
export function clientSnippet(id: string, options: EntryOptions): Promise<SnippetView> {
  return call<SnippetView>("client_snippet", { id, ...options });
}

/**
 * Starts the bundled garmin-mcp as an MCP client on the account shown and calls each read-only tool
 * once; rejects with `not_signed_in` without a session.
 */
export function runToolCheck(): Promise<ToolCheckReport> {
  return call<ToolCheckReport>("run_tool_check");
}

/** A workout spec as the `garmin` crate reads it (`name`, `sport`, `steps`; see its workout_spec docs). */
export type WorkoutSpec = Record<string, unknown> & {
  name?: unknown;
  sport?: unknown;
  steps?: unknown;
  segments?: unknown;
  transitions?: unknown;
};

/** The requests waiting for the person, oldest first. */
export function pendingProposals(): Promise<PendingRequest[]> {
  return call<PendingRequest[]>("pending_proposals");
}

/** Answers request `id`; the waiting assistant then does (or drops) the change. */
export function decideProposal(id: number, decision: Decision): Promise<void> {
  return call<void>("decide_proposal", { id, decision });
}

/** Checks a workout spec and recomputes its totals in the Rust core, worded in `language`. */
export function previewWorkout(spec: WorkoutSpec, language: "en" | "zh" = "en"): Promise<WorkoutPreview> {
  return call<WorkoutPreview>("preview_workout", { spec, language });
}

/** Garmin's exercise catalogue searched by name, muscle or equipment (the exercise picker). */
export function findExercises(query: ExerciseQuery): Promise<ExerciseHit[]> {
  return call<ExerciseHit[]>("find_exercises", { query });
}

/** The workout spec language as the step editor needs it (types, ends, targets, defaults, templates). */
export function workoutGrammar(): Promise<EditorGrammar> {
  return call<EditorGrammar>("workout_grammar");
}

/** Calls `handler` with the new list whenever requests arrive or are answered. */
export function onPendingChanged(handler: (requests: PendingRequest[]) => void): Promise<UnlistenFn> {
  return listen<PendingRequest[]>("pending-requests-changed", (event) => handler(event.payload));
}

/** The remote-access server's state. */
export function remoteStatus(): Promise<RemoteView> {
  return call<RemoteView>("remote_status");
}

/** Starts `garmin-mcp --http` with a private token file; resolves once it says where it listens (or ended). */
export function startRemote(settings: RemoteSettings): Promise<RemoteView> {
  return call<RemoteView>("start_remote", { settings });
}

/** Stops the remote-access server (calls in progress finish first, up to 10 s). */
export function stopRemote(): Promise<RemoteView> {
  return call<RemoteView>("stop_remote");
}

/** Allows (with or without write access) or denies a hosted assistant waiting for approval. */
export function remoteDecide(id: string, allow: boolean, write: boolean): Promise<RemoteView> {
  return call<RemoteView>("remote_decide", { id, allow, write });
}

/** Revokes one approved client (`id`) or all of them; their tokens stop working at once. */
export function remoteRevoke(id: string | null, all: boolean): Promise<RemoteView> {
  return call<RemoteView>("remote_revoke", { id, all });
}

/** Makes a new pairing code (the last one expired or pairing was locked after wrong codes). */
export function remoteNewCode(): Promise<RemoteView> {
  return call<RemoteView>("remote_new_code");
}

/**
 * Creates a workout made by hand in the account shown, then optionally schedules it and sends it to
 * the watch; each step is journaled. Rejects with `invalid_input` (every problem) for a broken spec.
 */
export function createWorkoutByHand(
  spec: WorkoutSpec,
  scheduleOn: string | null,
  sendToDevice: boolean,
): Promise<DoneView[]> {
  return call<DoneView[]>("create_workout_by_hand", { spec, scheduleOn, sendToDevice });
}

/** The account's most recent changes (from the app and from AI assistants), newest first. */
export function recentChanges(limit?: number): Promise<ChangeRowView[]> {
  return call<ChangeRowView[]>("recent_changes", { limit: limit ?? null });
}

/** Takes change `id` back on Garmin (journaled as an undo). */
export function undoChange(id: number): Promise<DoneView[]> {
  return call<DoneView[]>("undo_change", { id });
}

/** Everything remembered about the athlete of the account shown. */
export function athleteFacts(): Promise<FactView[]> {
  return call<FactView[]>("athlete_facts");
}

/** Remembers a fact typed in the app. Rejects with `invalid_input` naming the field. */
export function addAthleteFact(fact: FactForm): Promise<FactView> {
  return call<FactView>("add_athlete_fact", { fact });
}

/** Changes fact `id` to the form's values. Rejects with `invalid_input` naming the field. */
export function editAthleteFact(id: number, fact: FactForm): Promise<FactView> {
  return call<FactView>("edit_athlete_fact", { id, fact });
}

/** Deletes fact `id` for every assistant. */
export function deleteAthleteFact(id: number): Promise<FactView> {
  return call<FactView>("delete_athlete_fact", { id });
}

/** What the local history of the account shown holds, and where its sync is. */
export function historyStatus(): Promise<HistoryStatusView> {
  return call<HistoryStatusView>("history_status");
}

/**
 * Starts syncing the history in the background (progress arrives through `onHistorySync`). A sync
 * already running is left alone. `firstOnly`: only when the history was never synced (after sign-in).
 */
export function startHistorySync(firstOnly = false): Promise<SyncView> {
  return call<SyncView>("start_history_sync", { firstOnly });
}

/** Calls `handler` as a sync progresses and when it ends. */
export function onHistorySync(handler: (sync: SyncView) => void): Promise<UnlistenFn> {
  return listen<SyncView>("history-sync", (event) => handler(event.payload));
}

/** The Training view of the account shown: its fitness chart and newest activities, from the local history. */
export function trainingOverview(): Promise<TrainingView> {
  return call<TrainingView>("training_overview");
}

/** The lifetimes Garmin's key page offers, in days. */
export const KEY_DAYS: readonly number[] = [30, 90, 180, 365];

/** The Personal API key of the account shown. */
export function personalKeyStatus(): Promise<PersonalKeyView> {
  return call<PersonalKeyView>("personal_key_status");
}

/** Opens Garmin's key page, signed in, in a separate window titled `windowTitle`. */
export function openPersonalKeyPage(windowTitle: string): Promise<void> {
  return call<void>("open_personal_key_page", { windowTitle });
}

/**
 * Checks the pasted key with Garmin (one token exchange) and saves it; `validDays` is the lifetime
 * chosen on Garmin's page, null when unknown. Rejects with `invalid_input` when Garmin refuses it.
 */
export function addPersonalKey(key: string, validDays: number | null): Promise<PersonalKeyView> {
  return call<PersonalKeyView>("add_personal_key", { key, validDays });
}

/** Removes the saved key (the web sign-in stays). */
export function removePersonalKey(): Promise<PersonalKeyView> {
  return call<PersonalKeyView>("remove_personal_key");
}

/** The app's preferences (language, last site, remote access, first sync, window size), every field usable. */
export function getPreferences(): Promise<Preferences> {
  return call<Preferences>("get_preferences");
}

/** Changes the fields of `update` that are given, saves them, and returns the preferences. */
export function setPreferences(update: PreferencesUpdate): Promise<Preferences> {
  return call<Preferences>("set_preferences", { update });
}
