// Generated from the Rust types by src-tauri/src/typescript.rs (ts-rs): do not edit.
// Regenerate with `UPDATE_TS_BINDINGS=1 cargo test -p garmin-desktop --test typescript`.

/**
 * What the UI does next, as a stable code.
 */
export type ErrorCode = "not_signed_in" | "session_expired" | "network" | "sign_in_closed" | "wrong_site" | "sign_in_rejected" | "invalid_input" | "other";

/**
 * A command's failure, as the UI receives it.
 */
export type CommandError = {
/**
 * What the UI does next.
 */
code: ErrorCode,
/**
 * What happened and what to do, in plain words.
 */
message: string, };

/**
 * Which Garmin Connect the account lives on.
 */
export type Site = "global" | "cn";

/**
 * What the site picker offers.
 */
export type SiteChoice = "global" | "cn" | "demo";

/**
 * The saved session as the UI shows it.
 */
export type SessionView = {
/**
 * `global` or `cn` (the demo account imitates `global`).
 */
site: Site,
/**
 * True for the demo account (sample data, not a Garmin account): label it as such.
 */
demo: boolean,
/**
 * How people recognise the site, e.g. "Garmin Connect China (connect.garmin.cn)".
 */
siteLabel: string,
/**
 * The Connect origin in use.
 */
connectUrl: string,
/**
 * Account displayName, once known.
 */
displayName: string | null,
/**
 * Account full name, once known.
 */
fullName: string | null,
/**
 * When the session was captured (signed in).
 */
capturedAt: string,
/**
 * When it was last renewed.
 */
lastRefreshAt: string | null,
/**
 * How many renewals since sign-in.
 */
refreshCount: number,
/**
 * When the access cookie says it expires; a hint only (renewal is automatic).
 */
accessExpiresAt: string | null,
/**
 * When the sign-in itself is expected to end: the `session` cookie's expiry, else about three
 * months after sign-in. An estimate; see `session_expiry_stated`.
 */
sessionExpiresAt: string,
/**
 * True when Garmin stated `session_expires_at` (the cookie's expiry), false when estimated.
 */
sessionExpiryStated: boolean, };

/**
 * Who Garmin says the account is.
 */
export type AccountView = {
/**
 * displayName.
 */
displayName: string,
/**
 * Full name, when Garmin gives one.
 */
fullName: string | null, };

/**
 * The answer of `check_session`: Garmin accepted the session.
 */
export type CheckResult = {
/**
 * The account Garmin reported.
 */
account: AccountView,
/**
 * The session after the check (it may have been renewed on the way).
 */
session: SessionView, };

/**
 * The `garmin-mcp` the entries start.
 */
export type SidecarView = {
/**
 * Its absolute path; `None` when it was not found (Configure is then refused).
 */
path: string | null,
/**
 * Where it was looked for, in order.
 */
lookedIn: Array<string>,
/**
 * The app runs from an AppImage: a path inside it breaks once the app quits.
 */
fromAppimage: boolean, };

/**
 * One client's row.
 */
export type ClientView = {
/**
 * Stable id (`claude-code`, `codex`, …), what the other commands take.
 */
id: string,
/**
 * The name people know.
 */
name: string,
/**
 * Something of the client was found on this computer.
 */
installed: boolean,
/**
 * How it was found, e.g. "found /home/ann/.codex".
 */
detectedBy: string | null,
/**
 * The config file Configure writes; `None` when the client keeps servers inside the app.
 */
configPath: string | null,
/**
 * `yes`, `no`, `different` (an entry named `garmin` that starts something else) or `unknown`.
 */
configured: "yes" | "no" | "different" | "unknown",
/**
 * For `different` and `unknown`: why, in plain words (with the file and what to do).
 */
configuredDetail: string | null,
/**
 * Only a copyable snippet (Cherry Studio, a project's `.mcp.json`): no Configure / Remove.
 */
manualOnly: boolean,
/**
 * The client's entry passes `--demo` (the offline demo account).
 */
demo: boolean,
/**
 * The client's entry passes `--readonly` (no tool writes to Garmin).
 */
readonly: boolean, };

/**
 * The panel: the sidecar the entries start, the data folder they pass, and every client.
 */
export type ClientsView = {
/**
 * Which `garmin-mcp` the entries start.
 */
sidecar: SidecarView,
/**
 * The `--data-dir` every entry passes: the real account's folder.
 */
dataDir: string,
/**
 * One row per client, in `ClientId::ALL` order.
 */
clients: Array<ClientView>,
/**
 * The hosts that install our server from a link ("Add to VS Code"…), in the order shown.
 */
linkHosts: Array<LinkHostView>, };

/**
 * A host with an install link.
 */
export type LinkHostView = {
/**
 * `vscode`, `cursor`, `goose` or `lmstudio`: what [`open_install_link`] takes.
 */
id: string,
/**
 * Its name as people know it.
 */
name: string, };

/**
 * What Configure or Remove did.
 */
export type ConfigEditView = {
/**
 * The client's id.
 */
client: string,
/**
 * `created`, `added`, `updated`, `unchanged`, `removed` or `not_present`.
 */
outcome: "created" | "added" | "updated" | "unchanged" | "removed" | "not_present",
/**
 * The config file.
 */
path: string,
/**
 * Where the file as it was before garmin-mcp first changed it is kept, if it existed.
 */
backup: string | null,
/**
 * The whole outcome in words (file, backup, restart the client).
 */
message: string, };

/**
 * The text for setting a client up by hand.
 */
export type SnippetView = {
/**
 * A whole config file holding only our server (JSON, or TOML for Codex).
 */
snippet: string,
/**
 * Where it goes and what to restart.
 */
whereToPut: string, };

/**
 * How one tool did in the tool check.
 */
export type ToolOutcome = "answered" | "no_data" | "failed" | "skipped";

/**
 * One row of the tool check's table.
 */
export type ToolCheckRow = {
/**
 * The tool's name (`get_profile`).
 */
tool: string,
/**
 * Its human title, when the server gives one.
 */
title: string | null,
/**
 * How it did.
 */
outcome: ToolOutcome,
/**
 * Time from call to answer, in milliseconds (0 when skipped).
 */
millis: number,
/**
 * The first sentence of its answer, or why it failed or was skipped.
 */
summary: string,
/**
 * Which credentials served its answer (`personal_api`, `web_session`), as the answer's
 * `_meta["dev.garminmcp/source"]` says; empty when it made no Garmin read or failed.
 */
sources?: Array<string>, };

/**
 * What the UI shows after a check.
 */
export type ToolCheckReport = {
/**
 * The check ran against the demo account.
 */
demo: boolean,
/**
 * The `garmin-mcp` program that was started.
 */
sidecar: string,
/**
 * One row per read-only tool, in the server's order.
 */
rows: Array<ToolCheckRow>,
/**
 * The whole check, start-up included, in milliseconds.
 */
totalMillis: number, };

/**
 * What is asked, tagged by `kind` (`confirm` or `sign_in`).
 */
export type AskedView = { "kind": "confirm",
/**
 * One line, e.g. "Create the workout '800m x4' in your Garmin library".
 */
title: string,
/**
 * The plain-words preview with totals.
 */
preview: string,
/**
 * The tool that proposed it (`create_workout`, `schedule_workout`, …).
 */
changeKind: string,
/**
 * For a new workout: its spec in canonical form, for the step editor.
 */
spec: Record<string, unknown> | null,
/**
 * The AI client that asked, when it said.
 */
requestedBy: string | null,
/**
 * True when the sidecar serves the demo account.
 */
demo: boolean, } | { "kind": "sign_in",
/**
 * Why, in the sidecar's words.
 */
reason: string, };

/**
 * A waiting request as the UI sees it (no secrets: workouts, ids and words only).
 */
export type PendingRequest = {
/**
 * The id `decide_proposal` takes.
 */
id: number,
/**
 * When the request arrived.
 */
receivedAt: string, } & ({ "kind": "confirm",
/**
 * One line, e.g. "Create the workout '800m x4' in your Garmin library".
 */
title: string,
/**
 * The plain-words preview with totals.
 */
preview: string,
/**
 * The tool that proposed it (`create_workout`, `schedule_workout`, …).
 */
changeKind: string,
/**
 * For a new workout: its spec in canonical form, for the step editor.
 */
spec: Record<string, unknown> | null,
/**
 * The AI client that asked, when it said.
 */
requestedBy: string | null,
/**
 * True when the sidecar serves the demo account.
 */
demo: boolean, } | { "kind": "sign_in",
/**
 * Why, in the sidecar's words.
 */
reason: string, });

/**
 * What the person decided about a waiting request (tagged by `kind`).
 */
export type Decision = { "kind": "approve",
/**
 * The edited workout spec; `None` keeps the change as proposed.
 */
spec?: Record<string, unknown> | null,
/**
 * New workouts only: put it on the calendar on this day.
 */
scheduleOn?: string | null,
/**
 * New workouts only: send it to the last used watch.
 */
sendToDevice?: boolean, } | { "kind": "cancel",
/**
 * The person's words, if any.
 */
reason?: string | null, };

/**
 * One problem in a workout spec.
 */
export type SpecProblem = {
/**
 * Where: `name`, `steps[1].steps[0].pace`…; empty for the spec as a whole.
 */
path: string,
/**
 * What the spec language wants there (with an example or a "did you mean").
 */
expected: string,
/**
 * What was there instead (`"5:7x"`, `12`, `nothing`…).
 */
found: string, };

/**
 * A workout spec checked and previewed by the `garmin` crate, for the editor's live totals.
 */
export type WorkoutPreview = {
/**
 * The whole workout in words with totals; empty when the spec has problems.
 */
text: string,
/**
 * The totals in words (`≈ 7.2 km · ≈ 0:44:00`; metres in swims and under 1 km); empty when
 * the spec has problems.
 */
total: string,
/**
 * One line per top-level step.
 */
lines: Array<string>,
/**
 * Estimated distance in metres.
 */
distanceM: number | null,
/**
 * Estimated time in seconds.
 */
durationS: number | null,
/**
 * True when the totals lean on assumptions (open steps, steps without a pace).
 */
estimated: boolean,
/**
 * Every problem in the spec (path, expected, found); empty when it is valid.
 */
problems: Array<SpecProblem>, };

/**
 * What a step editor needs to know about the spec language.
 */
export type EditorGrammar = {
/**
 * Types of a step to do, canonical names in the order an editor offers them (`repeat` is
 * the other step type, edited as a group).
 */
stepKinds: Array<string>,
/**
 * How a step can end, in the order an editor offers them; the last group (`other`) is kept
 * as it is but not offered. A step with no end ends at the lap button.
 */
ends: Array<FieldGroup>,
/**
 * What a step can aim at: the groups an editor edits (`pace`, `hr`), then `other` (kept as
 * they are, shown as text).
 */
targets: Array<FieldGroup>,
/**
 * Heart-rate zones are 1 to this.
 */
hrZones: number,
/**
 * Most repetitions of a repeat.
 */
maxRepeatTimes: number,
/**
 * The step "add a step" appends.
 */
newStep: Record<string, unknown>,
/**
 * The repeat "add a repeat" appends.
 */
newRepeat: Record<string, unknown>,
/**
 * A plain workout to start from, one per sport (every sport of `sports`), canonical.
 */
templates: Array<Template>,
/**
 * What the editor offers per sport, in the order to offer the sports.
 */
sports: Array<SportGrammar>,
/**
 * The weight of an exercise step: `weight_kg`, then `weight_lb` (factor to kg).
 */
weight: FieldGroup, };

/**
 * Keys of a spec step that say one thing (an end, or a target), in their different units.
 */
export type FieldGroup = {
/**
 * `distance`, `time`, `lap`, `other` (ends); `pace`, `hr`, `other` (targets).
 */
kind: string,
/**
 * Every key of the group, the canonical one first.
 */
keys: Array<FieldKey>,
/**
 * What the canonical key is set to when the person picks this group, per sport; `None` for
 * `other`, which an editor keeps but does not offer.
 */
default: PerSport | null, };

/**
 * One key of a [`FieldGroup`].
 */
export type FieldKey = {
/**
 * The key in the spec (`distance_km`).
 */
key: string,
/**
 * For a number: how many of the group's canonical unit one of this key is (`distance_km`:
 * 1000 m); `None` for text (a single `pace` is shown as it is, and edited into `pace_range`).
 */
factor: number | null, };

/**
 * A value for each sport.
 */
export type PerSport = {
/**
 * Running.
 */
run: unknown,
/**
 * Cycling.
 */
bike: unknown,
/**
 * Pool swimming.
 */
swim: unknown, };

/**
 * A workout to start from.
 */
export type Template = {
/**
 * The spec's sport (`run`, `strength`, `multisport`…).
 */
sport: string,
/**
 * The spec, canonical (its `name` is English; an editor may show its own).
 */
spec: Record<string, unknown>, };

/**
 * What the editor offers in one sport.
 */
export type SportGrammar = {
/**
 * The spec's sport (`run`, `strength`, `multisport`…).
 */
sport: string,
/**
 * `endurance` (run, bike, swim), `exercise` (strength, cardio, hiit, yoga, pilates, mobility)
 * or `multisport`.
 */
family: string,
/**
 * The step types to offer (besides repeat), canonical names.
 */
stepKinds: Array<string>,
/**
 * The end groups to offer (kinds of [`EditorGrammar::ends`]).
 */
ends: Array<string>,
/**
 * The target groups to offer (kinds of [`EditorGrammar::targets`]); empty in exercise sports.
 */
targets: Array<string>,
/**
 * What a group's canonical key gets when picked here, by group kind (`reps`, `time`, `weight`…).
 */
defaults: Record<string, unknown>,
/**
 * Exercise sports: the catalogue list to pick from (`strength`, `yoga`, `pilates`, `mobility`),
 * the `sport` of an exercise search.
 */
exerciseList: string | null,
/**
 * HIIT's named forms (`emom`, `tabata`, `amrap`), empty elsewhere.
 */
hiitForms: Array<string>,
/**
 * Multisport: the sports a leg may have.
 */
legs: Array<string>,
/**
 * The step "add a step" appends in this sport.
 */
newStep: Record<string, unknown>,
/**
 * The repeat (a set, in exercise sports) "add a repeat" appends.
 */
newRepeat: Record<string, unknown>, };

/**
 * What to look for; every given part must match.
 */
export type ExerciseQuery = {
/**
 * Part of a name, in English or Chinese, e.g. "bench press", "lunge", "深蹲".
 */
name?: string | null,
/**
 * A muscle or group it works: a Garmin key (QUADS, LATS…), its name, or legs, back, core,
 * arms, shoulders, chest.
 */
muscle?: string | null,
/**
 * Equipment it uses (barbell, dumbbell, kettlebell, band, cable machine…), or "bodyweight".
 */
equipment?: string | null,
/**
 * The workout sport whose list to search: strength (default; also cardio, hiit), yoga,
 * pilates or mobility.
 */
sport?: string | null,
/**
 * Most rows (1-50, default 10).
 */
limit?: number | null, };

/**
 * One exercise found.
 */
export type ExerciseHit = {
/**
 * What to write in a workout spec's `exercise`: `BENCH_PRESS/BARBELL_BENCH_PRESS`.
 */
exercise: string,
/**
 * English name, e.g. `Barbell bench press`.
 */
name: string,
/**
 * Chinese name, when there is one.
 */
zh?: string,
/**
 * Garmin's category, e.g. `BENCH_PRESS`.
 */
category: string,
/**
 * Muscles it mainly works, in words.
 */
primary_muscles: Array<string>,
/**
 * Muscles it also works, in words.
 */
secondary_muscles: Array<string>,
/**
 * Equipment, in words (empty: none needed).
 */
equipment: Array<string>, };

/**
 * What the person chose in the panel.
 */
export type RemoteSettings = {
/**
 * `false`: this computer only (127.0.0.1); `true`: my network (0.0.0.0).
 */
network: boolean,
/**
 * The port to listen on.
 */
port: number,
/**
 * Hide every tool that writes to Garmin.
 */
readOnly: boolean,
/**
 * The tunnel's public HTTPS origin (Tailscale Funnel, Cloudflare Tunnel): turns on OAuth so
 * hosted assistants (claude.ai, ChatGPT…) can connect after the person approves each one.
 */
publicUrl?: string, };

/**
 * The approval side of the panel.
 */
export type OwnerView = {
/**
 * The pairing code to type on the approval page.
 */
pairing: PairingCode | null,
/**
 * Clients waiting for approval.
 */
pending: Array<PendingClient>,
/**
 * Approved clients.
 */
clients: Array<RemoteClient>,
/**
 * Why the server could not be asked, in plain words.
 */
problem: string | null, };

/**
 * A fresh pairing code.
 */
export type PairingCode = {
/**
 * Six digits.
 */
code: string,
/**
 * How long it stays valid.
 */
expiresInSecs: number, };

/**
 * A client waiting for the owner's approval.
 */
export type PendingClient = {
/**
 * The request's id (to approve it).
 */
id: string,
/**
 * The name the client gives itself (cleaned, short).
 */
name: string,
/**
 * Its client id (a URL for metadata-document clients).
 */
clientId: string,
/**
 * Whether the name is vouched for: a pinned host (Claude, ChatGPT…) rather than a self-chosen one.
 */
verified: boolean,
/**
 * Where the answer goes (`claude.ai`, `127.0.0.1:3000`).
 */
redirectTarget: string,
/**
 * It asked for write access.
 */
asksWrite: boolean,
/**
 * Four letters the consent page shows too, to tell requests apart.
 */
tag: string,
/**
 * Seconds since the page was opened.
 */
ageSecs: number, };

/**
 * An approved client (a grant).
 */
export type RemoteClient = {
/**
 * The grant's id (to revoke it).
 */
id: string,
/**
 * The client's name.
 */
name: string,
/**
 * Its client id.
 */
clientId: string,
/**
 * Granted scopes (`garmin:read`, `garmin:write`).
 */
scopes: Array<string>,
/**
 * When the owner approved it (Unix seconds).
 */
created: number,
/**
 * When it last called the server (Unix seconds).
 */
lastUsed: number | null, };

/**
 * What the panel shows.
 */
export type RemoteView = {
/**
 * The server process is running.
 */
running: boolean,
/**
 * The settings of the current (or last) run; the defaults before the first.
 */
settings: RemoteSettings,
/**
 * What clients put as the server's URL, once the server says where it listens.
 */
clientUrl: string | null,
/**
 * Why the URL needs editing (the network address could not be found), in plain words.
 */
urlNote: string | null,
/**
 * The header clients must send, `Authorization: Bearer …`, while a run has a token.
 */
authorizationHeader: string | null,
/**
 * The server's start-up line, when it printed one.
 */
startupLine: string | null,
/**
 * The server's last lines of output.
 */
output: Array<string>,
/**
 * How the last run ended, when it has.
 */
exit: string | null,
/**
 * Why the server cannot be started: the bundled program was not found.
 */
sidecarMissing: string | null,
/**
 * With a public URL: what hosted assistants are given (`https://…/mcp`).
 */
connectorUrl: string | null,
/**
 * The connector URL as a QR code (an `<svg>` element), for the phone.
 */
connectorQr: string | null,
/**
 * With a public URL, while the server runs: the approval side (pairing code, waiting and
 * approved clients), filled by [`RemoteAccess::owner_view`].
 */
owner: OwnerView | null, };

/**
 * One change made (or a follow-up that could not be), as the UI shows it.
 */
export type DoneView = {
/**
 * Its number in the journal (`None` when it was not journaled or not done).
 */
changeId: number | null,
/**
 * What was done, in words (English).
 */
summary: string,
/**
 * Ids created or touched (`workout_id`, `schedule_id`, …).
 */
ids: { [key in string]: number },
/**
 * Whether Undo can take it back.
 */
canUndo: boolean, };

/**
 * A journal entry in the recent-changes list.
 */
export type ChangeRowView = {
/**
 * Its number (what Undo takes).
 */
id: number,
/**
 * When Garmin accepted it.
 */
time: string,
/**
 * Who made it: an MCP tool's name, or `app: …` for the app's buttons.
 */
tool: string,
/**
 * What was done, in words (English).
 */
summary: string,
/**
 * `done`, `undone` or `undo of #n`.
 */
state: string,
/**
 * Whether Undo can take it back now.
 */
canUndo: boolean,
/**
 * How the person confirmed it: `app`, `elicitation` (in the chat) or `allow_write`
 * (`GARMIN_ALLOW_WRITE`); `None` in journals written before this was recorded.
 */
confirmedBy: ConfirmedBy | null, };

/**
 * How the person confirmed a change before it was written (the journal's `confirmed_by`).
 */
export type ConfirmedBy = "app" | "elicitation" | "allow_write" | "other";

/**
 * What the local history of an account holds.
 */
export type HistoryView = {
/**
 * The history file exists.
 */
exists: boolean,
/**
 * First day covered.
 */
firstDay: string | null,
/**
 * Last day covered (a day that was over when it was read).
 */
lastDay: string | null,
/**
 * Activities kept.
 */
activities: number,
/**
 * Days kept.
 */
days: number,
/**
 * When it was last synced (by the app or any `garmin-mcp`).
 */
lastSyncedAt: string | null,
/**
 * The database file.
 */
path: string, };

/**
 * Where a sync is: days handled of the days to handle, requests sent, what is being read.
 */
export type SyncProgressView = {
/**
 * Days handled so far.
 */
done: number,
/**
 * Days to handle in all (0 until known).
 */
total: number,
/**
 * Requests sent to Garmin so far.
 */
requests: number,
/**
 * What is being read, e.g. `reading 2026-10-19 to 2026-11-15` (English).
 */
message: string, };

/**
 * How a sync ended.
 */
export type SyncEnd = "complete" | "rate_limited" | "budget" | "failed";

/**
 * The end of the last sync of an account.
 */
export type SyncOutcomeView = {
/**
 * How it ended.
 */
end: SyncEnd,
/**
 * When it ended.
 */
finishedAt: string,
/**
 * For `rate_limited`: when to run it again.
 */
resumeAfter: string | null,
/**
 * What was read, and what to do next, in one paragraph (English); `None` when it failed.
 */
summary: string | null,
/**
 * For `failed`: the one error shape.
 */
error: CommandError | null,
/**
 * Days read in this run.
 */
daysRead: number,
/**
 * Activities new to the history in this run.
 */
activitiesAdded: number,
/**
 * Requests sent in this run.
 */
requests: number, };

/**
 * The sync of one account as the window shows it.
 */
export type SyncView = {
/**
 * The demo account's (so a window showing the other account ignores it).
 */
demo: boolean,
/**
 * A sync is running now.
 */
running: boolean,
/**
 * Where the running (or last) sync got to.
 */
progress: SyncProgressView | null,
/**
 * How the last sync ended, since the app started.
 */
last: SyncOutcomeView | null, };

/**
 * The history card: what the history holds and where its sync is.
 */
export type HistoryStatusView = {
/**
 * What the history holds.
 */
history: HistoryView,
/**
 * The sync.
 */
sync: SyncView, };

/**
 * The fitness chart's days as columns, the shape the chart component draws.
 */
export type FitnessView = {
/**
 * One day each, oldest first, without gaps; the last is today.
 */
dates: Array<string>,
/**
 * Fitness (CTL) per day.
 */
ctl: Array<number>,
/**
 * Fatigue (ATL) per day.
 */
atl: Array<number>,
/**
 * Form (TSB) per day.
 */
tsb: Array<number>,
/**
 * How CTL, ATL and TSB are computed, in one sentence (English).
 */
convention: string,
/**
 * Which load was counted, in one sentence (English).
 */
loadConvention: string,
/**
 * The scale of CTL, ATL and TSB: `tss` (100 = one hour at threshold) or `garmin` (Garmin's
 * training load), as `get_fitness_trend` names it.
 */
loadScale: string,
/**
 * Why a load could not be counted (no heart-rate profile, no FTP), one sentence each (English).
 */
notes: Array<string>,
/**
 * Some day shown is within the history's first 42 days: read those numbers as rough.
 */
settling: boolean, };

/**
 * One of the newest activities.
 */
export type RecentActivityView = {
/**
 * Garmin's id.
 */
activityId: number,
/**
 * Local date of the start.
 */
date: string,
/**
 * Its name as Garmin keeps it.
 */
name: string | null,
/**
 * Garmin's type key (`running`, `cycling`, …).
 */
typeKey: string | null,
/**
 * Distance, m.
 */
distanceM: number | null,
/**
 * Timer time, s.
 */
durationS: number | null,
/**
 * Average heart rate, bpm.
 */
avgHr: number | null,
/**
 * Garmin's training load.
 */
trainingLoad: number | null, };

/**
 * What the Training view shows for the account shown.
 */
export type TrainingView = {
/**
 * The demo account's (its data is the demo's, and the view says so).
 */
demo: boolean,
/**
 * What the history holds (its days, counts, last sync).
 */
history: HistoryView,
/**
 * The fitness chart up to today; `None` when no synced activity has a training load.
 */
fitness: FitnessView | null,
/**
 * The newest activities, newest first.
 */
recent: Array<RecentActivityView>, };

/**
 * The Personal API key of the account shown, as the home window shows it (never the key).
 */
export type PersonalKeyView = {
/**
 * Whether the Personal API is offered for this account (not for Garmin Connect China).
 */
offered: boolean,
/**
 * Why it is not offered, in plain words (English), when it is not.
 */
notOffered: string | null,
/**
 * A key is saved.
 */
saved: boolean,
/**
 * When it was added.
 */
addedAt: string | null,
/**
 * When it stops working, when known.
 */
keyExpiresAt: string | null,
/**
 * Whole days left (negative: expired), when the expiry is known.
 */
daysLeft: number | null,
/**
 * It expires within 14 days: make a new key.
 */
expiresSoon: boolean,
/**
 * It has expired.
 */
expired: boolean, };

/**
 * What kind of fact it is.
 */
export type FactKind = "goal_race" | "injury" | "constraint" | "preference" | "volume_cap" | "equipment" | "other";

/**
 * One fact as the UI shows it.
 */
export type FactView = {
/**
 * Its number.
 */
id: number,
/**
 * `goal_race`, `injury`, `constraint`, `preference`, `volume_cap`, `equipment`, `other`.
 */
kind: FactKind,
/**
 * The fact in words.
 */
text: string,
/**
 * `YYYY-MM-DD`.
 */
date: string | null,
/**
 * For a goal race: days from today (negative once past).
 */
daysToRace: number | null,
/**
 * km.
 */
distanceKm: number | null,
/**
 * `h:mm:ss`.
 */
targetTime: string | null,
/**
 * km a week.
 */
weeklyKmCap: number | null,
/**
 * When it was remembered (RFC 3339, UTC).
 */
created: string,
/**
 * When it last changed.
 */
updated: string,
/**
 * The client or the app that remembered it.
 */
source: string,
/**
 * Who changed it last.
 */
updatedBy: string | null, };

/**
 * A fact as the UI's form sends it. For an edit every field is sent: an empty `date` or
 * `targetTime`, or a `0` distance or cap, removes that field.
 */
export type FactForm = {
/**
 * The kind.
 */
kind: FactKind | null,
/**
 * The fact in words.
 */
text: string | null,
/**
 * `YYYY-MM-DD`.
 */
date: string | null,
/**
 * km.
 */
distanceKm: number | null,
/**
 * `h:mm:ss` or `h:mm`.
 */
targetTime: string | null,
/**
 * km a week.
 */
weeklyKmCap: number | null, };

/**
 * A language the window speaks (`ui/src/i18n.svelte.ts`'s `LOCALES`).
 */
export type Language = "en" | "zh";

/**
 * The views of the signed-in window's navigation (`ui/src/sections.ts`'s `SECTIONS`).
 */
export type HomeView = "training" | "workouts" | "clients" | "remote" | "account";

/**
 * The main window's size in logical pixels, and whether it was maximised (the size is then the
 * one it returns to when un-maximised).
 */
export type WindowGeometry = {
/**
 * Width in logical pixels.
 */
width: number,
/**
 * Height in logical pixels.
 */
height: number,
/**
 * The window was maximised.
 */
maximized: boolean, };

/**
 * Everything the app remembers for the person (not the session: see the module's doc).
 */
export type Preferences = {
/**
 * The window's language; none chosen yet: the window follows the system's.
 */
language: Language | null,
/**
 * The site last signed in to, which the site picker highlights.
 */
lastSite: SiteChoice | null,
/**
 * The remote-access panel's choices of its last start.
 */
remote: RemoteSettings,
/**
 * Right after a sign-in the first history sync starts by itself.
 */
autoFirstSync: boolean,
/**
 * The main window's size when it last changed; none: the configured size.
 */
window: WindowGeometry | null,
/**
 * The view of the signed-in window last shown; none: Training.
 */
homeView: HomeView | null, };

/**
 * What the UI changes: only the fields given; the others stay as they are.
 */
export type PreferencesUpdate = {
/**
 * The window's language.
 */
language?: Language,
/**
 * Whether the first sync after a sign-in starts by itself.
 */
autoFirstSync?: boolean,
/**
 * The view of the signed-in window shown now.
 */
homeView?: HomeView, };

/** Every error code, in the order Rust declares them. */
export const ERROR_CODES: readonly ErrorCode[] = ["not_signed_in", "session_expired", "network", "sign_in_closed", "wrong_site", "sign_in_rejected", "invalid_input", "other"];

/** Every kind of remembered fact, in the order the memory lists them. */
export const FACT_KINDS: readonly FactKind[] = ["goal_race", "injury", "constraint", "volume_cap", "preference", "equipment", "other"];
