// The one door to the app's Rust side: the only file that calls `invoke`, with one typed function per
// command in src-tauri/src/commands.rs. Shapes mirror src-tauri/src/models.rs; failures are AppErrors.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
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

/** Which `garmin-mcp` the AI clients' entries start (the one bundled with the app). */
export interface SidecarView {
  /** Its absolute path; null when it was not found (Configure is then refused). */
  path: string | null;
  /** Where it was looked for, in order. */
  lookedIn: string[];
  /** The app runs from an AppImage, whose files vanish when it quits. */
  fromAppimage: boolean;
}

/** Whether a client's config starts our server (`different`: a `garmin` entry starting something else). */
export type ConfiguredState = "yes" | "no" | "different" | "unknown";

/** One AI client's row. */
export interface ClientView {
  /** Stable id (`claude-code`, `codex`, …) the client commands take. */
  id: string;
  name: string;
  installed: boolean;
  /** How it was found, e.g. "found /home/ann/.codex". */
  detectedBy: string | null;
  /** The file Configure writes; null when the client keeps servers inside the app. */
  configPath: string | null;
  configured: ConfiguredState;
  /** For `different` and `unknown`: why, with the file and what to do (English). */
  configuredDetail: string | null;
  /** Only a copyable snippet (Cherry Studio, a project's .mcp.json): no Configure / Remove. */
  manualOnly: boolean;
  /** The client's entry passes `--demo` (the offline demo account). */
  demo: boolean;
  /** The client's entry passes `--readonly` (no tool writes to Garmin). */
  readonly: boolean;
}

/** The switches a row puts into the entry (`garmin-mcp configure --demo --readonly`); false takes one out. */
export interface EntryOptions {
  demo: boolean;
  readonly: boolean;
}

/** The AI clients panel: the sidecar, the data folder every entry passes, and every client. */
export interface ClientsView {
  sidecar: SidecarView;
  dataDir: string;
  clients: ClientView[];
}

/** What Configure or Remove did to a client's config file. */
export interface ConfigEditView {
  client: string;
  outcome: "created" | "added" | "updated" | "unchanged" | "removed" | "not_present";
  path: string;
  /** Where the file as it was before garmin-mcp first changed it is kept. */
  backup: string | null;
  /** The whole outcome in words (English). */
  message: string;
}

/** The text to set a client up by hand, and where it goes (English). */
export interface SnippetView {
  snippet: string;
  whereToPut: string;
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

/** The exact snippet for setting the client up by hand, with the row's switches. */
export function clientSnippet(id: string, options: EntryOptions): Promise<SnippetView> {
  return call<SnippetView>("client_snippet", { id, ...options });
}

/** How one tool did in the tool check: ✅ answered, ⚠️ no data, ❌ failed, or not called. */
export type ToolOutcome = "answered" | "no_data" | "failed" | "skipped";

/** One tool's row in the tool check (mirrors src-tauri/src/tool_check.rs). */
export interface ToolCheckRow {
  tool: string;
  title: string | null;
  outcome: ToolOutcome;
  /** From call to answer; 0 when skipped. */
  millis: number;
  /** The first sentence of the answer, or why it failed or was skipped (English). */
  summary: string;
}

/** The tool check's table: every read-only tool of the bundled garmin-mcp, in the server's order. */
export interface ToolCheckReport {
  demo: boolean;
  /** The garmin-mcp program that was started. */
  sidecar: string;
  rows: ToolCheckRow[];
  totalMillis: number;
}

/**
 * Starts the bundled garmin-mcp as an MCP client on the account shown and calls each read-only tool
 * once; rejects with `not_signed_in` without a session.
 */
export function runToolCheck(): Promise<ToolCheckReport> {
  return call<ToolCheckReport>("run_tool_check");
}

/** A workout spec as the `garmin` crate reads it (`name`, `sport`, `steps`; see its workout_spec docs). */
export type WorkoutSpec = Record<string, unknown> & { name?: unknown; sport?: unknown; steps?: unknown };

/** One problem in a workout spec: where, what was expected, what was found (English). */
export interface SpecProblem {
  path: string;
  expected: string;
  found: string;
}

/** A spec checked and described by the Rust core; totals are estimates. */
export interface WorkoutPreview {
  /** The whole workout in words with totals; empty when there are problems. */
  text: string;
  lines: string[];
  distanceM: number | null;
  durationS: number | null;
  /** The totals lean on assumptions (open steps, steps without a pace). */
  estimated: boolean;
  problems: SpecProblem[];
}

/** A write an AI assistant proposed, waiting for the person. */
export interface ConfirmRequest {
  kind: "confirm";
  id: number;
  receivedAt: string;
  title: string;
  preview: string;
  /** The tool that proposed it: `create_workout`, `schedule_workout`, … */
  changeKind: string;
  /** For a new workout: the editable spec (canonical form: seconds, metres, pace ranges). */
  spec: WorkoutSpec | null;
  /** The AI client that asked, when it said. */
  requestedBy: string | null;
  demo: boolean;
}

/** An AI assistant found no usable session and asks the person to sign in. */
export interface SignInRequest {
  kind: "sign_in";
  id: number;
  receivedAt: string;
  reason: string;
}

/** A request from an AI assistant (through `garmin-mcp`) waiting for the person. */
export type PendingRequest = ConfirmRequest | SignInRequest;

/** What the person decided: approve (with the edited spec and follow-ups for a new workout) or cancel. */
export type Decision =
  | { kind: "approve"; spec?: WorkoutSpec | null; scheduleOn?: string | null; sendToDevice?: boolean }
  | { kind: "cancel"; reason?: string | null };

/** The requests waiting for the person, oldest first. */
export function pendingProposals(): Promise<PendingRequest[]> {
  return call<PendingRequest[]>("pending_proposals");
}

/** Answers request `id`; the waiting assistant then does (or drops) the change. */
export function decideProposal(id: number, decision: Decision): Promise<void> {
  return call<void>("decide_proposal", { id, decision });
}

/** Checks a workout spec and recomputes its totals in the Rust core. */
export function previewWorkout(spec: WorkoutSpec): Promise<WorkoutPreview> {
  return call<WorkoutPreview>("preview_workout", { spec });
}

/** Calls `handler` with the new list whenever requests arrive or are answered. */
export function onPendingChanged(handler: (requests: PendingRequest[]) => void): Promise<UnlistenFn> {
  return listen<PendingRequest[]>("pending-requests-changed", (event) => handler(event.payload));
}

/** What the remote-access panel starts the server with. */
export interface RemoteSettings {
  /** false: this computer only (127.0.0.1); true: my network (0.0.0.0). */
  network: boolean;
  port: number;
  /** Hide every tool that writes to Garmin (on by default). */
  readOnly: boolean;
}

/** The remote-access server: running?, where clients reach it, how the last run ended. */
export interface RemoteView {
  running: boolean;
  /** The current (or last) run's settings; the defaults before the first. */
  settings: RemoteSettings;
  /** The URL clients use, once the server says where it listens. */
  clientUrl: string | null;
  /** Why the URL needs care (no network address found), in words (English). */
  urlNote: string | null;
  /** `Authorization: Bearer …` for clients to send, while running. */
  authorizationHeader: string | null;
  /** The server's start-up line (English). */
  startupLine: string | null;
  /** The server's last lines of output. */
  output: string[];
  /** How the last run ended ("stopped", "exited with code 1", …). */
  exit: string | null;
  /** Why the server cannot be started: the bundled program is missing (English). */
  sidecarMissing: string | null;
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

/** One change the app made (or a follow-up that could not be made: no `changeId`). */
export interface DoneView {
  /** Its number in the journal (what Undo takes); null when not journaled or not done. */
  changeId: number | null;
  /** What was done, in words (English); "Not done: …" for a failed follow-up. */
  summary: string;
  /** Ids created or touched (`workout_id`, `schedule_id`, …). */
  ids: Record<string, number>;
  canUndo: boolean;
}

/** A change in the journal shared with every garmin-mcp of this account, newest first. */
export interface ChangeRowView {
  id: number;
  time: string;
  /** An MCP tool's name, or `app: …` when the app's buttons made it. */
  tool: string;
  /** What was done, in words (English). */
  summary: string;
  /** `done`, `undone` or `undo of #n`. */
  state: string;
  canUndo: boolean;
  /** How the person confirmed it: in the app, in the chat (MCP elicitation), or `GARMIN_ALLOW_WRITE`; null in old journals. */
  confirmedBy: "app" | "elicitation" | "allow_write" | "other" | null;
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

/** What kind of remembered fact (Rust `garmin::athlete::FactKind`). */
export type FactKind = "goal_race" | "injury" | "constraint" | "preference" | "volume_cap" | "equipment" | "other";

/** Every kind, in the order the memory lists them. */
export const FACT_KINDS: readonly FactKind[] = [
  "goal_race",
  "injury",
  "constraint",
  "volume_cap",
  "preference",
  "equipment",
  "other",
];

/** One fact of the athlete memory (`athlete.json`, shared with every garmin-mcp of the account). */
export interface FactView {
  id: number;
  kind: FactKind;
  text: string;
  /** `YYYY-MM-DD`: a goal race's day, or since when an injury hurts. */
  date: string | null;
  /** For a goal race: days from today (negative once past). */
  daysToRace: number | null;
  distanceKm: number | null;
  /** `h:mm:ss`. */
  targetTime: string | null;
  weeklyKmCap: number | null;
  created: string;
  updated: string;
  /** The AI client (its MCP name) or the app that remembered it. */
  source: string;
  updatedBy: string | null;
}

/** A fact as the form sends it: for an edit, "" or 0 removes a field. */
export interface FactForm {
  kind: FactKind;
  text: string;
  date: string;
  distanceKm: number;
  targetTime: string;
  weeklyKmCap: number;
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

/** What the local history (`history.sqlite3`, shared with every garmin-mcp) holds. Days are `YYYY-MM-DD`. */
export interface HistoryView {
  exists: boolean;
  firstDay: string | null;
  /** Last day covered (a day that was over when it was read; today is always read live). */
  lastDay: string | null;
  activities: number;
  days: number;
  /** When it was last synced, by the app or any garmin-mcp. */
  lastSyncedAt: string | null;
  path: string;
}

/** Where a sync is: days handled of the days to handle, requests sent, what is read (English). */
export interface SyncProgressView {
  done: number;
  total: number;
  requests: number;
  message: string;
}

/** How a sync ended (Rust `history_sync::SyncEnd`). */
export type SyncEnd = "complete" | "rate_limited" | "budget" | "failed";

/** The end of the last sync since the app started. */
export interface SyncOutcomeView {
  end: SyncEnd;
  finishedAt: string;
  /** For `rate_limited`: when to run it again (nothing read is lost). */
  resumeAfter: string | null;
  /** What was read and what to do next (English); null when it failed. */
  summary: string | null;
  /** For `failed`: the one error shape. */
  error: { code: string; message: string } | null;
  daysRead: number;
  activitiesAdded: number;
  requests: number;
}

/** The sync of one account (`demo` says which: ignore events of the other). */
export interface SyncView {
  demo: boolean;
  running: boolean;
  progress: SyncProgressView | null;
  last: SyncOutcomeView | null;
}

/** The history card: what the history holds and where its sync is. */
export interface HistoryStatusView {
  history: HistoryView;
  sync: SyncView;
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

/** Garmin's official Personal API key of the account shown (never the key itself). */
export interface PersonalKeyView {
  /** False for Garmin Connect China accounts: the Personal API is not offered there. */
  offered: boolean;
  /** Why not, in plain words (English). */
  notOffered: string | null;
  saved: boolean;
  addedAt: string | null;
  /** When the key stops working, when known. */
  keyExpiresAt: string | null;
  /** Whole days left (negative: expired). */
  daysLeft: number | null;
  /** Expires within 14 days: make a new key. */
  expiresSoon: boolean;
  expired: boolean;
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
