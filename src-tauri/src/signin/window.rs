//! The sign-in window: a second webview on the site's own sign-in page, where the password goes
//! only to Garmin. It has no capability, so nothing it loads can call the app's commands (the app's
//! ACL manifest lets only the main window in), and it may only navigate to web pages.
//!
//! When a page of the picked site's Connect app finishes loading in it — on any of the site's
//! front ends, e.g. `connectus.garmin.cn` for an international account on a mainland-China
//! network — the app
//! 1. reads the page by script (`csrf-token` meta tag, account, `navigator.userAgent`), retrying a
//!    few times while the token is not there yet;
//! 2. reads the window's cookies for the front end it landed on natively with `cookies_for_url`
//!    (HttpOnly ones included) on a
//!    blocking thread — never on the main thread or inside a navigation handler, where on Linux the
//!    read would wait for the very GTK loop it blocks;
//! 3. hands both to the rest of [`crate::signin`], which builds the session, checks it with Garmin and saves it.
//!
//! The window's own ephemeral (incognito) cookie jar keeps Garmin's cookies out of the app's
//! WebKit data folder: the only copy is the 0600 `session.json`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use garmin::{Session, SessionStore};
use tauri::webview::{Cookie, PageLoadEvent, PageLoadPayload};
use tauri::{AppHandle, Manager as _, Runtime, WebviewUrl, WebviewWindow, WebviewWindowBuilder, WindowEvent};
use tokio::sync::oneshot;

use super::{BrowserCookie, Landing, PageReading, READ_PAGE_SCRIPT, SignInError, Target};

/// Labels of sign-in windows start with this; a number after it tells attempts apart.
pub const SIGN_IN_WINDOW_PREFIX: &str = "garmin-sign-in-";

/// How many times, how far apart, and how long each, the Connect page is read while it shows no
/// CSRF token yet (or the engine dropped the answer because the page moved on).
const PAGE_READ_ATTEMPTS: u32 = 5;
const PAGE_READ_PAUSE: Duration = Duration::from_secs(1);
const PAGE_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How a sign-in attempt ended.
type Outcome = Result<Session, SignInError>;

/// The sign-in in progress; at most one (managed state).
#[derive(Debug, Default)]
pub struct SignInFlow {
    current: Mutex<Option<Attempt>>,
    next_id: AtomicU64,
}

#[derive(Debug)]
struct Attempt {
    id: u64,
    reply: oneshot::Sender<Outcome>,
}

impl SignInFlow {
    /// Starts attempt number `id`, ending any earlier one as closed.
    fn begin(&self) -> (u64, oneshot::Receiver<Outcome>) {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let (reply, outcome) = oneshot::channel();
        if let Some(earlier) = self.lock().replace(Attempt { id, reply }) {
            let _ = earlier.reply.send(Err(SignInError::WindowClosed));
        }
        (id, outcome)
    }

    /// Ends attempt `id` with `outcome`, unless it already ended.
    fn finish(&self, id: u64, outcome: Outcome) {
        let mut current = self.lock();
        if current.as_ref().is_some_and(|attempt| attempt.id == id)
            && let Some(attempt) = current.take()
        {
            let _ = attempt.reply.send(outcome);
        }
    }

    /// Ends the attempt in progress as closed (the Cancel button); false when there was none.
    pub fn cancel(&self) -> bool {
        let Some(attempt) = self.lock().take() else { return false };
        let _ = attempt.reply.send(Err(SignInError::WindowClosed));
        true
    }

    fn lock(&self) -> MutexGuard<'_, Option<Attempt>> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Opens the sign-in window for `target` and waits until the session is saved in `store`, the
/// sign-in failed, or the window was closed.
pub async fn sign_in<R: Runtime>(
    app: &AppHandle<R>,
    target: Target,
    store: SessionStore,
    title: &str,
) -> Outcome {
    let flow = app.state::<SignInFlow>();
    let (id, outcome) = flow.begin();
    close_sign_in_windows(app);
    if let Err(e) = open(app, id, target, store, title) {
        flow.finish(id, Err(e));
    }
    let result = outcome.await.unwrap_or(Err(SignInError::WindowClosed));
    close_sign_in_windows(app);
    if result.is_ok()
        && let Some(main) = app.get_webview_window("main")
    {
        let _ = main.set_focus();
    }
    result
}

/// Label of the window on Garmin's Personal API key page: a sign-in window too (same prefix), so
/// it has no capability and closes with the app's window or a new sign-in.
pub const KEY_PAGE_WINDOW: &str = "garmin-sign-in-key-page";

/// Opens the key-page window (or brings the open one back to the start): blank first, then
/// `cookies` set in its own ephemeral jar, then `url` (the site's sign-in page returning to the key
/// page; see [`super::key_page`]). The person creates the key there and pastes it into the app's
/// window.
pub fn open_key_page<R: Runtime>(
    app: &AppHandle<R>,
    url: tauri::Url,
    cookies: Vec<Cookie<'static>>,
    title: &str,
) -> Result<(), SignInError> {
    let window = match app.get_webview_window(KEY_PAGE_WINDOW) {
        Some(open) => {
            let _ = open.set_title(title);
            let _ = open.set_focus();
            open
        }
        None => {
            let blank = tauri::Url::parse("about:blank").map_err(|e| SignInError::Window(e.to_string()))?;
            WebviewWindowBuilder::new(app, KEY_PAGE_WINDOW, WebviewUrl::External(blank))
                .title(title)
                .inner_size(720.0, 760.0)
                .min_inner_size(380.0, 480.0)
                .center()
                .incognito(true)
                .on_navigation(|url| matches!(url.scheme(), "https" | "http" | "about" | "data" | "blob"))
                .build()
                .map_err(|e| SignInError::Window(e.to_string()))?
        }
    };
    // Both go through the event loop in order: the cookies are in the jar before the page loads.
    for cookie in cookies {
        window
            .set_cookie(cookie)
            .map_err(|e| SignInError::Window(format!("could not sign the window in: {e}")))?;
    }
    window.navigate(url).map_err(|e| SignInError::Window(e.to_string()))
}

/// Closes the key-page window, if open (the key was saved, or the person gave up).
pub fn close_key_page<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window(KEY_PAGE_WINDOW) {
        let _ = window.destroy();
    }
}

/// Closes every sign-in window (a new attempt, the end of one, or the main window closing).
pub fn close_sign_in_windows<R: Runtime>(app: &AppHandle<R>) {
    for (label, window) in app.webview_windows() {
        if label.starts_with(SIGN_IN_WINDOW_PREFIX) {
            let _ = window.destroy();
        }
    }
}

fn open<R: Runtime>(
    app: &AppHandle<R>,
    id: u64,
    target: Target,
    store: SessionStore,
    title: &str,
) -> Result<WebviewWindow<R>, SignInError> {
    // Set once the session is being read: from then on the outcome decides, not the window.
    let capturing = Arc::new(AtomicBool::new(false));
    let on_page_load = {
        let (app, target, capturing) = (app.clone(), target.clone(), capturing.clone());
        move |window: WebviewWindow<R>, payload: PageLoadPayload<'_>| {
            if payload.event() != PageLoadEvent::Finished {
                return;
            }
            match target.landing(payload.url()) {
                Landing::Elsewhere => {}
                Landing::OtherSite(landed) => {
                    let wrong = SignInError::WrongSite { picked: target.site(), landed };
                    app.state::<SignInFlow>().finish(id, Err(wrong));
                }
                Landing::ConnectApp { connect } if !capturing.swap(true, Ordering::SeqCst) => {
                    let (app, store) = (app.clone(), store.clone());
                    let landed = target.landed_on(&connect);
                    // Off this handler (the main thread) at once: the reads below wait on it.
                    tauri::async_runtime::spawn(async move {
                        let outcome = match landed {
                            Ok(landed) => capture(&window, &landed, &store).await,
                            Err(e) => Err(e),
                        };
                        app.state::<SignInFlow>().finish(id, outcome);
                    });
                }
                Landing::ConnectApp { .. } => {}
            }
        }
    };
    let label = format!("{SIGN_IN_WINDOW_PREFIX}{id}");
    let window = WebviewWindowBuilder::new(app, &label, WebviewUrl::External(target.sign_in_url().clone()))
        .title(title)
        .inner_size(520.0, 760.0)
        .min_inner_size(380.0, 480.0)
        .center()
        .incognito(true)
        .on_navigation(|url| matches!(url.scheme(), "https" | "http" | "about" | "data" | "blob"))
        .on_page_load(on_page_load)
        .build()
        .map_err(|e| SignInError::Window(e.to_string()))?;
    let app = app.clone();
    window.on_window_event(move |event| {
        if matches!(event, WindowEvent::Destroyed) && !capturing.load(Ordering::SeqCst) {
            app.state::<SignInFlow>().finish(id, Err(SignInError::WindowClosed));
        }
    });
    Ok(window)
}

/// Reads the signed-in session out of the window and completes the sign-in.
async fn capture<R: Runtime>(window: &WebviewWindow<R>, target: &Target, store: &SessionStore) -> Outcome {
    let page = read_page(window).await?;
    let cookies = read_cookies(window, target).await?;
    let session = super::session_from_browser(target, &cookies, &page)?;
    super::validate_and_save(session, store).await
}

/// The Connect page's CSRF token, account and User-Agent, read by script after the page loaded.
async fn read_page<R: Runtime>(window: &WebviewWindow<R>) -> Result<PageReading, SignInError> {
    let mut last = PageReading::default();
    for attempt in 0..PAGE_READ_ATTEMPTS {
        if attempt > 0 {
            tokio::time::sleep(PAGE_READ_PAUSE).await;
        }
        let (tx, rx) = oneshot::channel::<String>();
        let tx = Mutex::new(Some(tx));
        window
            .eval_with_callback(READ_PAGE_SCRIPT, move |json| {
                if let Some(tx) = tx.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    let _ = tx.send(json);
                }
            })
            .map_err(|e| SignInError::Window(format!("could not read the Garmin Connect page: {e}")))?;
        if let Ok(Ok(json)) = tokio::time::timeout(PAGE_READ_TIMEOUT, rx).await
            && let Ok(reading) = PageReading::from_script_result(&json)
        {
            if reading.csrf().is_some() {
                return Ok(reading);
            }
            last = reading;
        }
    }
    // `session_from_browser` explains the missing token.
    Ok(last)
}

/// The window's cookies for the Connect and SSO hosts, HttpOnly ones included, copied out as plain
/// values for `session_from_browser`.
async fn read_cookies<R: Runtime>(
    window: &WebviewWindow<R>,
    target: &Target,
) -> Result<Vec<BrowserCookie>, SignInError> {
    let (window, urls) = (window.clone(), target.cookie_urls());
    tauri::async_runtime::spawn_blocking(move || {
        let mut cookies = Vec::new();
        for url in urls {
            cookies.extend(window.cookies_for_url(url)?.iter().map(browser_cookie));
        }
        Ok::<_, tauri::Error>(cookies)
    })
    .await
    .map_err(|e| SignInError::Window(format!("reading cookies stopped unexpectedly: {e}")))?
    .map_err(|e| SignInError::Window(format!("could not read the sign-in window's cookies: {e}")))
}

/// One webview cookie as plain values.
fn browser_cookie(cookie: &Cookie<'_>) -> BrowserCookie {
    BrowserCookie {
        domain: cookie.domain().map(str::to_owned),
        path: cookie.path().map(str::to_owned),
        expires_unix: cookie.expires_datetime().map(|t| t.unix_timestamp()),
        secure: cookie.secure().unwrap_or(false),
        http_only: cookie.http_only().unwrap_or(false),
        ..BrowserCookie::new(cookie.name(), cookie.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webview_cookie_is_copied_with_its_domain_path_expiry_and_flags() {
        let expires =
            tauri::webview::cookie::time::OffsetDateTime::from_unix_timestamp(1_900_000_000).unwrap();
        let webview = Cookie::build(("session", "sealed"))
            .domain("connect.garmin.com")
            .path("/")
            .http_only(true)
            .secure(true)
            .expires(expires)
            .build();
        let copied = browser_cookie(&webview);
        assert_eq!((copied.name.as_str(), copied.value.as_str()), ("session", "sealed"));
        assert_eq!(copied.domain.as_deref(), Some("connect.garmin.com"));
        assert_eq!(copied.path.as_deref(), Some("/"));
        assert_eq!(copied.expires_unix, Some(1_900_000_000));
        assert!(copied.secure && copied.http_only);
        let bare = browser_cookie(&Cookie::new("GARMIN-SSO", "1"));
        assert_eq!((bare.domain, bare.path, bare.expires_unix), (None, None, None), "a session cookie");
        assert!(!bare.secure && !bare.http_only);
    }

    #[tokio::test]
    async fn a_new_attempt_ends_the_earlier_one_as_closed_and_cancel_ends_the_current_one() {
        let flow = SignInFlow::default();
        let (first, first_outcome) = flow.begin();
        let (second, second_outcome) = flow.begin();
        assert_ne!(first, second);
        assert!(matches!(first_outcome.await, Ok(Err(SignInError::WindowClosed))));
        // A late report about the first attempt changes nothing.
        flow.finish(first, Err(SignInError::Rejected { detail: "late".into() }));
        assert!(flow.cancel());
        assert!(matches!(second_outcome.await, Ok(Err(SignInError::WindowClosed))));
        assert!(!flow.cancel(), "nothing left to cancel");
    }

    #[tokio::test]
    async fn an_attempt_ends_once_with_its_first_outcome() {
        let flow = SignInFlow::default();
        let (id, outcome) = flow.begin();
        flow.finish(
            id,
            Err(SignInError::WrongSite { picked: garmin::Site::Cn, landed: garmin::Site::Global }),
        );
        flow.finish(id, Err(SignInError::WindowClosed));
        assert!(matches!(outcome.await, Ok(Err(SignInError::WrongSite { .. }))));
    }
}
