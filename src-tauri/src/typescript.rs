//! The UI's TypeScript types, generated from the Rust types the commands take and return, so the two
//! sides cannot drift apart. [`exported`] is the one list of what the UI gets; [`bindings`] writes
//! it as `ui/src/generated/bindings.ts` (committed), with the error codes and fact kinds as
//! constants. The workout editor's grammar is also written out (`workout-grammar.json`) for the
//! UI's unit tests. `tests/typescript.rs` regenerates the file and fails, naming [`REGENERATE`], when the
//! committed one differs; `cargo xtask test` runs it with the workspace's tests.
//!
//! The types derive [`ts_rs::TS`], which reads their serde attributes (camelCase fields, tagged
//! enums, renamed variants). Types of other crates (`garmin`, `app-bridge`) derive it behind their
//! `ts` feature, which only this crate enables: the `garmin-mcp` sidecar does not pay for it.
//! `ui/src/api.ts` imports these types; its command wrappers stay hand-written (the one door).

use ts_rs::{Config, TS};

use crate::athlete::{FactForm, FactView};
use crate::bridge::{AskedView, PendingRequest};
use crate::clients::{ClientView, ClientsView, ConfigEditView, LinkHostView, SidecarView, SnippetView};
use crate::confirm::{Decision, WorkoutPreview};
use crate::error::{Error, ErrorCode};
use crate::history_sync::{
    HistoryStatusView, HistoryView, SyncEnd, SyncOutcomeView, SyncProgressView, SyncView,
};
use crate::models::{AccountView, CheckResult, SessionView, SiteChoice};
use crate::personal_key::PersonalKeyView;
use crate::preferences::{HomeView, Language, Preferences, PreferencesUpdate, WindowGeometry};
use crate::tool_check::{ToolCheckReport, ToolCheckRow, ToolOutcome};
use crate::training::{FitnessView, RecentActivityView, TrainingView};
use crate::writes::{ChangeRowView, DoneView};
use app_bridge::remote::owner::{PairingCode, PendingClient, RemoteClient};
use app_bridge::remote::{OwnerView, RemoteSettings, RemoteView};
use garmin::exercises::{ExerciseHit, ExerciseQuery};
use garmin::workout_spec::{
    EditorGrammar, FieldGroup, FieldKey, PerSport, SpecProblem, SportGrammar, Template,
};
use local_data::athlete::FactKind;

/// Where the generated types live, relative to the workspace root.
pub const BINDINGS_FILE: &str = "ui/src/generated/bindings.ts";

/// The workout editor's grammar as `workout_grammar` serves it, for the UI's unit tests (the app
/// itself asks the command).
pub const GRAMMAR_FILE: &str = "ui/src/generated/workout-grammar.json";

/// The command that rewrites the generated files from the Rust types.
pub const REGENERATE: &str = "UPDATE_TS_BINDINGS=1 cargo test -p garmin-desktop --test typescript";

/// One exported type: its TypeScript name, its declaration, and the names it uses.
struct Declared {
    name: String,
    text: String,
    uses: Vec<String>,
}

fn declare<T: TS + 'static>(cfg: &Config) -> Declared {
    Declared {
        name: T::ident(cfg),
        text: format!("{}export {}", T::docs().unwrap_or_default(), T::decl(cfg)),
        uses: T::dependencies(cfg).into_iter().map(|d| d.ts_name).collect(),
    }
}

/// Every type the UI receives or sends, in the order the file lists them. A new command's types
/// go here (a type used by a listed one must be listed too: [`bindings`] refuses otherwise).
fn exported(cfg: &Config) -> Vec<Declared> {
    vec![
        // Errors: every command rejects with a CommandError.
        declare::<ErrorCode>(cfg),
        declare::<Error>(cfg),
        // The session and signing in.
        declare::<garmin::Site>(cfg),
        declare::<SiteChoice>(cfg),
        declare::<SessionView>(cfg),
        declare::<AccountView>(cfg),
        declare::<CheckResult>(cfg),
        // The AI clients panel.
        declare::<SidecarView>(cfg),
        declare::<ClientView>(cfg),
        declare::<ClientsView>(cfg),
        declare::<LinkHostView>(cfg),
        declare::<ConfigEditView>(cfg),
        declare::<SnippetView>(cfg),
        // The tool check.
        declare::<ToolOutcome>(cfg),
        declare::<ToolCheckRow>(cfg),
        declare::<ToolCheckReport>(cfg),
        // Requests from sidecars and the workout editor.
        declare::<AskedView>(cfg),
        declare::<PendingRequest>(cfg),
        declare::<Decision>(cfg),
        declare::<SpecProblem>(cfg),
        declare::<WorkoutPreview>(cfg),
        declare::<EditorGrammar>(cfg),
        declare::<FieldGroup>(cfg),
        declare::<FieldKey>(cfg),
        declare::<PerSport>(cfg),
        declare::<Template>(cfg),
        declare::<SportGrammar>(cfg),
        declare::<ExerciseQuery>(cfg),
        declare::<ExerciseHit>(cfg),
        // Remote access.
        declare::<RemoteSettings>(cfg),
        declare::<OwnerView>(cfg),
        declare::<PairingCode>(cfg),
        declare::<PendingClient>(cfg),
        declare::<RemoteClient>(cfg),
        declare::<RemoteView>(cfg),
        // The app's own writes and the journal.
        declare::<DoneView>(cfg),
        declare::<ChangeRowView>(cfg),
        declare::<garmin::journal::ConfirmedBy>(cfg),
        // The local history and its sync.
        declare::<HistoryView>(cfg),
        declare::<SyncProgressView>(cfg),
        declare::<SyncEnd>(cfg),
        declare::<SyncOutcomeView>(cfg),
        declare::<SyncView>(cfg),
        declare::<HistoryStatusView>(cfg),
        // The Training view.
        declare::<FitnessView>(cfg),
        declare::<RecentActivityView>(cfg),
        declare::<TrainingView>(cfg),
        // Garmin's official Personal API key.
        declare::<PersonalKeyView>(cfg),
        // The athlete memory.
        declare::<FactKind>(cfg),
        declare::<FactView>(cfg),
        declare::<FactForm>(cfg),
        // The app's preferences.
        declare::<Language>(cfg),
        declare::<HomeView>(cfg),
        declare::<WindowGeometry>(cfg),
        declare::<Preferences>(cfg),
        declare::<PreferencesUpdate>(cfg),
    ]
}

/// A constant array of `values`' serde names, typed as `type_name`.
fn names_const<T: serde::Serialize>(name: &str, type_name: &str, values: &[T]) -> Result<String, String> {
    let names = values
        .iter()
        .map(|v| serde_json::to_string(v).map_err(|e| format!("{type_name} cannot be written as JSON: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format!("export const {name}: readonly {type_name}[] = [{}];\n", names.join(", ")))
}

/// Every generated file: its path from the workspace root and its content.
pub fn generated_files() -> Result<Vec<(&'static str, String)>, String> {
    let grammar = serde_json::to_string_pretty(&garmin::workout_spec::editor_grammar())
        .map_err(|e| format!("the workout grammar cannot be written as JSON: {e}"))?;
    Ok(vec![(BINDINGS_FILE, bindings()?), (GRAMMAR_FILE, format!("{grammar}\n"))])
}

/// The whole types file. Fails when a listed type uses one that is not listed.
pub fn bindings() -> Result<String, String> {
    // u64 ids and counts travel as JSON numbers, which JavaScript reads as `number`.
    let cfg = Config::new().with_large_int("number");
    let types = exported(&cfg);
    for declared in &types {
        if let Some(missing) = declared.uses.iter().find(|u| !types.iter().any(|t| &t.name == *u)) {
            return Err(format!(
                "{} uses {missing}, which is not exported: add it to `exported` in src-tauri/src/typescript.rs",
                declared.name
            ));
        }
    }
    let mut out = format!(
        "// Generated from the Rust types by src-tauri/src/typescript.rs (ts-rs): do not edit.\n\
         // Regenerate with `{REGENERATE}`.\n\n"
    );
    for declared in types {
        // ts-rs leaves a space at the end of each field's line.
        for line in declared.text.lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str("/** Every error code, in the order Rust declares them. */\n");
    out.push_str(&names_const("ERROR_CODES", "ErrorCode", &ErrorCode::ALL)?);
    out.push_str("\n/** Every kind of remembered fact, in the order the memory lists them. */\n");
    out.push_str(&names_const("FACT_KINDS", "FactKind", &FactKind::ALL)?);
    Ok(out)
}
