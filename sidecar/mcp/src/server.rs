//! The MCP server: [`GarminMcp`] holds the shared state every tool uses (a Garmin client built on
//! demand from the shared session), assembles the tool routers of every toolset, applies
//! `--toolsets` and `--readonly`, and answers `initialize` as `garmin-mcp` with this crate's version.

use std::sync::Arc;

use chrono::NaiveDate;
use garmin::{Client, RetryPolicy, SessionStore};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};
use serde::Serialize;

use crate::output::Answer;
use crate::tool_error::{SIGN_IN_NEEDED, ToolError};
use crate::toolsets;
use crate::writes::WriteMode;

const INSTRUCTIONS: &str = "Garmin Connect data of the signed-in athlete (runs, rides, swims, health, training). \
Dates are the athlete's local dates (YYYY-MM-DD); distances in km, paces in min/km (swims per 100 m), \
durations h:mm:ss, heart rate in bpm. Start broad (list_activities, get_period_stats, get_daily_health) \
and follow ids to details (get_activity). If a tool says the session is not usable, call `login`.";

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Where the shared session lives.
    pub store: SessionStore,
    /// Hide and refuse every tool that writes to Garmin.
    pub read_only: bool,
    /// Only these toolsets (`None` = all).
    pub toolsets: Option<Vec<String>>,
    /// Label every answer as demo data.
    pub demo: bool,
    /// Retry policy for reads (tests shorten it).
    pub retry: RetryPolicy,
    /// The athlete's "today" (`None` = the local date; tests and the demo pin it).
    pub today: Option<NaiveDate>,
    /// Who confirms writes to the account (see [`crate::writes`]).
    pub write_mode: WriteMode,
}

impl ServerOptions {
    /// Defaults for a data folder: every toolset, writes allowed by the safety model, real data.
    pub fn new(store: SessionStore) -> Self {
        ServerOptions {
            store,
            read_only: false,
            toolsets: None,
            demo: false,
            retry: RetryPolicy::default(),
            today: None,
            write_mode: WriteMode::AskApp,
        }
    }
}

/// The `garmin-mcp` MCP server. Cheap to clone (per-session copies share state).
#[derive(Clone, Debug)]
pub struct GarminMcp {
    ctx: Arc<Context>,
    tool_router: ToolRouter<Self>,
}

#[derive(Debug)]
struct Context {
    options: ServerOptions,
    client: tokio::sync::Mutex<Option<Client>>,
}

impl GarminMcp {
    /// Builds the server; fails on an unknown toolset name.
    pub fn new(options: ServerOptions) -> Result<Self, String> {
        let mut router = Self::all_tools();
        if let Some(names) = &options.toolsets {
            let chosen = toolsets::select(names)?;
            for tool in router.list_all() {
                if !chosen.iter().any(|set| set.tools.contains(&tool.name.as_ref())) {
                    router.remove_route(&tool.name);
                }
            }
        }
        if options.read_only {
            for tool in router.list_all() {
                let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true);
                if !read_only {
                    router.remove_route(&tool.name);
                }
            }
        }
        Ok(GarminMcp {
            ctx: Arc::new(Context { options, client: tokio::sync::Mutex::new(None) }),
            tool_router: router,
        })
    }

    /// Every tool of every toolset, before filtering, as clients see them (see [`crate::schema`]).
    pub fn all_tools() -> ToolRouter<Self> {
        let mut router = Self::generated_tools();
        for route in router.map.values_mut() {
            crate::schema::tidy(&mut route.attr);
        }
        router
    }

    /// Every tool as the tool macros describe it.
    fn generated_tools() -> ToolRouter<Self> {
        Self::activities_tools()
            + Self::stats_tools()
            + Self::calendar_tools()
            + Self::training_tools()
            + Self::health_tools()
            + Self::profile_tools()
            + Self::workouts_tools()
            + Self::events_tools()
            + Self::social_tools()
            + Self::workout_writes_tools()
            + Self::calendar_writes_tools()
            + Self::changes_tools()
            + Self::charts_tools()
            + Self::exports_tools()
            + Self::session_tools()
    }

    /// The Garmin client, built from the shared session on first use (and again after a sign-in).
    pub(crate) async fn garmin(&self) -> Result<Client, ToolError> {
        let mut slot = self.ctx.client.lock().await;
        if let Some(client) = slot.as_ref() {
            return Ok(client.clone());
        }
        let client =
            Client::builder().store(self.ctx.options.store.clone()).retry(self.ctx.options.retry).build()?;
        *slot = Some(client.clone());
        Ok(client)
    }

    /// Forgets the cached client (after the person signed out or in again).
    pub(crate) async fn reset_client(&self) {
        *self.ctx.client.lock().await = None;
    }

    /// The data folder's session store.
    pub(crate) fn store(&self) -> &SessionStore {
        &self.ctx.options.store
    }

    /// True in `--demo` mode.
    pub(crate) fn is_demo(&self) -> bool {
        self.ctx.options.demo
    }

    /// Who confirms writes.
    pub(crate) fn write_mode(&self) -> WriteMode {
        self.ctx.options.write_mode
    }

    /// The athlete's "today" (local date).
    pub(crate) fn today(&self) -> NaiveDate {
        self.ctx.options.today.unwrap_or_else(|| chrono::Local::now().date_naive())
    }

    /// An answer, labelled as demo data when serving the demo account.
    pub(crate) fn answer<T: Serialize>(&self, summary: impl Into<String>, data: T) -> Answer<T> {
        let summary = summary.into();
        if self.is_demo() {
            Answer::new(format!("{} {summary}", crate::demo::DEMO_LABEL), data)
        } else {
            Answer::new(summary, data)
        }
    }
}

impl GarminMcp {
    /// Runs the tool; when it finds no usable session, asks the desktop app to sign the person in
    /// (starting the app if needed, with progress notifications while waiting) and runs the tool
    /// again once they have. Without the app the first answer, with the exact steps, stands.
    async fn call_tool_signed_in(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let (Some(tool), Some(arguments)) =
            (self.tool_router.get(&request.name), request.arguments.as_ref())
            && let Err(message) = crate::schema::check_string_lengths(tool, arguments)
        {
            return Err(ErrorData::invalid_params(message, None));
        }
        let first = self.tool_router.call(ToolCallContext::new(self, request.clone(), context.clone())).await;
        let needs_sign_in = matches!(&first, Ok(CallToolResponse::Complete(result))
            if result.is_error == Some(true)
                && result.content.first().and_then(|c| c.as_text()).is_some_and(|t| t.text.starts_with(SIGN_IN_NEEDED)));
        if !needs_sign_in || request.name == "login" || self.is_demo() {
            return first;
        }
        let link = app_bridge::AppLink::in_dir(self.store().dir());
        if !crate::app::ask_to_sign_in(&link, &request.name, &context).await {
            return first;
        }
        self.reset_client().await;
        self.tool_router.call(ToolCallContext::new(self, request, context)).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GarminMcp {
    /// Runs the tool (see [`GarminMcp::call_tool_signed_in`]). Every call gets an answer, even one
    /// whose code panics: that becomes an `isError` result naming the tool, and everything the call
    /// held is released as it unwinds.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        crate::tool_error::answer_even_if_it_panics(&name, self.call_tool_signed_in(request, context)).await
    }

    fn get_info(&self) -> ServerConfig {
        let instructions = if self.is_demo() {
            format!("{} {INSTRUCTIONS}", crate::demo::DEMO_LABEL)
        } else {
            INSTRUCTIONS.to_owned()
        };
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("garmin-mcp", env!("CARGO_PKG_VERSION")).with_title("Garmin Connect"),
            )
            .with_instructions(instructions)
    }
}
