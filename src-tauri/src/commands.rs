//! The commands the UI invokes (through `ui/src/api.ts` only). Each is a few lines over the `garmin`
//! crate and [`crate::signin`]: no Garmin logic lives here. Commands are `async` so they never run
//! on the UI thread (and so creating the sign-in window cannot deadlock on Windows).
//!
//! Every command acts on the account shown now ([`Accounts::active`]): the real Garmin session, or
//! the demo account's separate one.

use tauri::{AppHandle, Runtime, State};

use crate::demo::DemoGarmin;
use crate::error::{Error, ErrorCode, Result};
use crate::models::{AccountView, CheckResult, SessionView, SiteChoice};
use crate::signin::window::{self as sign_in_window, SignInFlow};
use crate::signin::{self, Target};
use crate::state::Accounts;

/// Longest sign-in window title accepted from the UI.
const MAX_TITLE_CHARS: usize = 120;

/// The saved session of the account shown now, read from disk without touching the network;
/// `not_signed_in` when there is none.
#[tauri::command]
pub async fn session_status(accounts: State<'_, Accounts>) -> Result<SessionView> {
    let (store, demo) = accounts.active();
    let session = store
        .load()?
        .ok_or_else(|| Error::from(garmin::Error::NotSignedIn { data_dir: store.dir().to_path_buf() }))?;
    Ok(SessionView::new(&session, demo))
}

/// Proves the session works with one authenticated call to Garmin (renewing it if due).
#[tauri::command]
pub async fn check_session(accounts: State<'_, Accounts>) -> Result<CheckResult> {
    let (store, demo) = accounts.active();
    let client = garmin::Client::from_store(store)?;
    let account = client.verify().await?;
    Ok(CheckResult {
        account: AccountView { display_name: account.display_name, full_name: account.full_name },
        session: SessionView::new(&client.session(), demo),
    })
}

/// Signs out on this computer: removes `session.json` (for the app and every `garmin-mcp`). In the
/// demo account it removes the demo session and returns to the real account.
#[tauri::command]
pub async fn sign_out(accounts: State<'_, Accounts>) -> Result<()> {
    let (store, demo) = accounts.active();
    // `clear` waits for the session lock, which a renewal in another process may hold for a while.
    tauri::async_runtime::spawn_blocking(move || store.clear())
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("signing out stopped unexpectedly: {e}")))??;
    if demo {
        accounts.set_demo_active(false);
    }
    Ok(())
}

/// Opens the sign-in window for `site` (titled `window_title`, in the UI's language) and resolves
/// once sign-in saved a session — which becomes the account shown — or failed, or the window closed.
#[tauri::command]
pub async fn sign_in<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    demo_garmin: State<'_, DemoGarmin>,
    site: SiteChoice,
    window_title: String,
) -> Result<SessionView> {
    let target = match site {
        SiteChoice::Demo => demo_garmin.target().await?,
        SiteChoice::Global => Target::garmin(garmin::Site::Global, accounts.origins(garmin::Site::Global))?,
        SiteChoice::Cn => Target::garmin(garmin::Site::Cn, accounts.origins(garmin::Site::Cn))?,
    };
    let demo = target.is_demo();
    let title: String = window_title.trim().chars().take(MAX_TITLE_CHARS).collect();
    let session = sign_in_window::sign_in(&app, target, accounts.store(demo), &title).await?;
    accounts.set_demo_active(demo);
    remember_site(&app, &accounts, site);
    if !demo {
        // Sidecars that asked for a sign-in now find the session (the demo one is not theirs).
        crate::bridge::answer_sign_ins(&app, session.display_name.clone());
    }
    Ok(SessionView::new(&session, demo))
}

/// Ends a sign-in in progress: closes its window; the waiting `sign_in` rejects with
/// `sign_in_closed`. Nothing happens when no sign-in is in progress.
#[tauri::command]
pub async fn cancel_sign_in<R: Runtime>(app: AppHandle<R>, flow: State<'_, SignInFlow>) -> Result<()> {
    flow.cancel();
    sign_in_window::close_sign_in_windows(&app);
    Ok(())
}

/// The "paste cookies" fallback: a session from cookies copied out of a signed-in browser (the
/// `Cookie` header or a cookie list) and the CSRF token, checked with Garmin, then saved. The real
/// account becomes the one shown.
#[tauri::command]
pub async fn sign_in_with_cookies<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    site: garmin::Site,
    cookies: String,
    csrf_token: String,
    user_agent: Option<String>,
) -> Result<SessionView> {
    let ua = user_agent.unwrap_or_default();
    let session =
        garmin::Session::from_cookie_export(site, accounts.origins(site), &cookies, &csrf_token, &ua)
            .map_err(|e| match e {
                garmin::Error::InvalidInput(why) => signin::SignInError::InvalidInput(why),
                other => other.into(),
            })?;
    let session = signin::validate_and_save(session, &accounts.store(false)).await?;
    accounts.set_demo_active(false);
    let picked = match site {
        garmin::Site::Global => SiteChoice::Global,
        garmin::Site::Cn => SiteChoice::Cn,
    };
    remember_site(&app, &accounts, picked);
    crate::bridge::answer_sign_ins(&app, session.display_name.clone());
    Ok(SessionView::new(&session, false))
}

/// Remembers the site signed in to, which the site picker highlights next time.
fn remember_site<R: Runtime>(app: &AppHandle<R>, accounts: &Accounts, site: SiteChoice) {
    crate::preferences::remember(app, accounts.data_dir(), |p| crate::preferences::Preferences {
        last_site: Some(site),
        ..p
    });
}
