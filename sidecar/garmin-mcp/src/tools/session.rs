//! The `session` toolset: `login`, which tells the model whether the person is signed in to Garmin
//! Connect and, if not, opens the desktop app for them to sign in on Garmin's own page, or gives the
//! exact steps when the app is not installed.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Arguments of `login`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct LoginArgs {
    /// Open the Garmin MCP desktop app's sign-in when the person is not signed in (default true).
    #[serde(default)]
    pub open_app: Option<bool>,
}

/// The session state `login` reports.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LoginState {
    /// True when Garmin accepted the saved session just now.
    pub signed_in: bool,
    /// The account's display name, when signed in.
    pub display_name: Option<String>,
    /// The account's full name, when known.
    pub full_name: Option<String>,
    /// `global` (connect.garmin.com) or `cn` (connect.garmin.cn), when signed in.
    pub site: Option<String>,
    /// What is wrong, when not signed in.
    pub problem: Option<String>,
    /// Whether the desktop app was started for the person to sign in.
    pub app_opened: bool,
    /// What the person should do next, in order.
    pub next_steps: Vec<String>,
}

#[tool_router(router = session_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Check whether the person is signed in to Garmin Connect, and help them sign in if not. Use it
    /// when another tool says the session is missing or expired, or when the person asks to sign in
    /// or switch accounts. It opens the Garmin MCP desktop app (where they sign in on Garmin's own
    /// page; their password never passes through this tool) or gives the exact steps.
    #[tool(
        name = "login",
        annotations(title = "Sign in to Garmin Connect", read_only_hint = true, open_world_hint = true),
        output_schema = rmcp::handler::server::tool::schema_for_output::<LoginState>()
    )]
    async fn login(&self, Parameters(args): Parameters<LoginArgs>) -> Result<Answer<LoginState>, ToolError> {
        self.reset_client().await;
        let problem = match self.web_session().await {
            Ok(client) => match client.verify().await {
                Ok(account) => {
                    let site = client.site();
                    let summary = format!("Signed in to {} as {}.", site.label(), account.display_name);
                    return Ok(self.answer(
                        summary,
                        LoginState {
                            signed_in: true,
                            display_name: Some(account.display_name),
                            full_name: account.full_name,
                            site: Some(site.to_string()),
                            problem: None,
                            app_opened: false,
                            next_steps: Vec::new(),
                        },
                    ));
                }
                Err(e) if e.needs_sign_in() => e.to_string(),
                Err(e) => return Err(e.into()),
            },
            Err(ToolError::Garmin(e)) if e.needs_sign_in() => e.to_string(),
            Err(e) => return Err(e),
        };
        let app_opened =
            args.open_app.unwrap_or(true) && self.may_start_app() && crate::app::open_desktop_app();
        let data_dir = self.store().dir().display().to_string();
        let mut next_steps = Vec::new();
        if app_opened {
            next_steps.push(
                "Sign in to Garmin in the Garmin MCP window that just opened, then ask again.".to_owned(),
            );
        } else {
            next_steps.push(
                "Open the Garmin MCP desktop app, pick your Garmin site and sign in on Garmin's page."
                    .to_owned(),
            );
        }
        next_steps.push(format!(
            "Without the app: in a terminal run `garmin-mcp login --manual --site global --data-dir \"{data_dir}\"` (use `--site cn` for connect.garmin.cn accounts) and paste the cookies it asks for."
        ));
        let summary = format!("Not signed in to Garmin Connect: {problem}. {}", next_steps.join(" "));
        Ok(self.answer(
            summary,
            LoginState {
                signed_in: false,
                display_name: None,
                full_name: None,
                site: None,
                problem: Some(problem),
                app_opened,
                next_steps,
            },
        ))
    }
}
