//! The HTTP face of the fake: the one router that serves both the Connect origin (SPA pages,
//! `/gc-api`, the refresh call) and the SSO origin (sign-in page), the `/gc-api` gate (auth, then
//! faults), the Cloudflare-like cookie, and the loud catch-all that turns routing mistakes into a
//! 500 naming the request instead of a vague decode error.

use axum::Router;
use axum::extract::{OriginalUri, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{Next, from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};

use crate::auth::{Authenticated, Cookies, Denied, Presented, RefreshAnswer, RefreshOutcome, now_ms};
use crate::faults::FromEdge;
use crate::log::Note;
use crate::state::{AppState, lock};
use crate::{log, routes, sso};

/// Path of the web refresh call (reference §2.7).
pub const REFRESH_PATH: &str = "/services/auth/token/di-oauth/refresh";

/// The whole app, ready to serve.
pub fn router(state: AppState) -> Router {
    let gc_api = routes::router().fallback(no_route).layer(from_fn_with_state(state.clone(), gc_api_gate));
    Router::new()
        .route(REFRESH_PATH, post(refresh))
        // Dead or never-used token paths: Garmin answers 404 (reference §2.7).
        .route("/modern/di-oauth/refreshToken", any(not_found))
        .route("/modern/di-oauth/exchange", any(not_found))
        .route("/app", get(sso::app_page))
        .route("/app/", get(sso::app_page))
        .route("/app/{*rest}", get(sso::app_page))
        .route(crate::key_page::KEY_PAGE_PATH, get(sso::app_page).post(crate::key_page::create))
        .route("/modern", get(sso::app_page))
        .route("/modern/", get(sso::app_page))
        .route("/portal/sso/{locale}/sign-in", get(sso::sign_in_page).post(sso::sign_in_submit))
        .nest("/gc-api", gc_api)
        .merge(routes::outside_api().layer(from_fn_with_state(state.clone(), gc_api_gate)))
        .merge(crate::personal::router(state.clone()))
        .merge(control_api())
        .fallback(no_route)
        .layer(from_fn_with_state(state.clone(), front_end_redirect))
        .layer(from_fn(cf_cache_status))
        .layer(from_fn(cf_bm))
        .layer(from_fn_with_state(state.clone(), log::record))
        .with_state(state)
}

/// The `/__fake/` control API when the `control` feature is on (tests, the standalone fake); an
/// empty router in the shipped binaries' build, where `/__fake/…` falls to the loud catch-all.
fn control_api() -> Router<AppState> {
    #[cfg(feature = "control")]
    {
        crate::admin::router()
    }
    #[cfg(not(feature = "control"))]
    {
        Router::new()
    }
}

/// Gate in front of every `/gc-api` route (and its catch-all) and of the few API routes outside it
/// ([`routes::outside_api`]): auth first, then faults.
async fn gc_api_gate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let verdict = {
        let headers = req.headers();
        if headers.contains_key(header::AUTHORIZATION) {
            return denied(StatusCode::FORBIDDEN, "Authorization header on the cookie surface");
        }
        if header_text(headers, "sec-fetch-site") != Some("same-origin") {
            return denied(StatusCode::FORBIDDEN, "Sec-Fetch-Site is not same-origin");
        }
        let cookies = Cookies::from_headers(headers);
        let presented = presented(&cookies, headers);
        lock(&state.inner.auth).check_api(&presented, &state.inner.config, now_ms())
    };
    let family = match verdict {
        Ok(family) => family,
        Err(Denied::Expired) => return denied(StatusCode::UNAUTHORIZED, "JWT_WEB expired"),
        Err(Denied::Forbidden(why)) => return denied(StatusCode::FORBIDDEN, why),
    };
    let (fault, slow_answer) = apply_faults(&state, &target(&req), true).await;
    req.extensions_mut().insert(Authenticated { family });
    let res = match fault {
        None => next.run(req).await,
        Some(Planned::Overlay(patch)) => overlaid(next.run(req).await, &patch).await,
        Some(Planned::Answer(res)) => return res,
    };
    tokio::time::sleep(slow_answer).await;
    res
}

/// The handler's JSON answer with `patch` laid over it (a body that is not JSON passes unchanged).
async fn overlaid(res: Response, patch: &serde_json::Value) -> Response {
    let (parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    };
    crate::faults::overlay(&mut value, patch);
    let mut res = Response::from_parts(parts, axum::body::Body::from(value.to_string()));
    res.headers_mut().remove(header::CONTENT_LENGTH);
    noted(res, format!("fault Overlay({patch})"))
}

/// `POST /services/auth/token/di-oauth/refresh`: rotates `JWT_WEB` and CSRF (201), or refuses.
async fn refresh(State(state): State<AppState>, req: Request) -> Response {
    let (fault, slow_answer) = apply_faults(&state, &target(&req), false).await;
    if let Some(Planned::Answer(res)) = fault {
        return res;
    }
    let res = rotate_or_refuse(&state, &req);
    // The credential is spent now, whether or not the client is still there to hear the answer.
    tokio::time::sleep(slow_answer).await;
    res
}

/// The refresh call's decision and answer.
fn rotate_or_refuse(state: &AppState, req: &Request) -> Response {
    let headers = req.headers();
    let cookies = Cookies::from_headers(headers);
    let presented = presented(&cookies, headers);
    let outcome = lock(&state.inner.auth).refresh(&presented, &state.inner.config, now_ms());
    let answer = lock(&state.inner.auth).session_options().refresh_answer;
    match outcome {
        RefreshOutcome::Rotated { jwt, csrf } => {
            let (status, body) = match answer {
                RefreshAnswer::TokensInBody => (
                    StatusCode::CREATED,
                    serde_json::json!({ "encryptedToken": jwt, "csrfToken": csrf }).to_string(),
                ),
                RefreshAnswer::CookieOnlyEmptyBody => (StatusCode::OK, String::new()),
                RefreshAnswer::CookieOnlyTokenlessBody => (StatusCode::OK, "{}".to_owned()),
            };
            let mut res = (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
            set_cookie(res.headers_mut(), &format!("JWT_WEB={jwt}; Path=/; HttpOnly; Secure"));
            res
        }
        RefreshOutcome::ReuseDetected => denied(
            StatusCode::UNAUTHORIZED,
            "spent refresh credential presented again: session family killed",
        ),
        RefreshOutcome::Unauthorized(why) => denied(StatusCode::UNAUTHORIZED, why),
        RefreshOutcome::Forbidden(why) => denied(StatusCode::FORBIDDEN, why),
    }
}

/// Waits for the latency faults matching `target`; returns the answering fault's response, if
/// any, and how long to hold the handler's answer.
pub(crate) async fn apply_faults(
    state: &AppState,
    target: &str,
    gc_api: bool,
) -> (Option<Planned>, std::time::Duration) {
    let plan = lock(&state.inner.faults).plan(target, gc_api);
    if !plan.latency.is_zero() {
        tokio::time::sleep(plan.latency).await;
    }
    let planned = plan.fault.map(|fault| match fault {
        crate::faults::Fault::Overlay(patch) => Planned::Overlay(patch),
        fault => Planned::Answer(noted(fault.response(), format!("fault {fault:?}"))),
    });
    (planned, plan.slow_answer)
}

/// What a matching fault does to a request.
pub(crate) enum Planned {
    /// Answer this instead of the handler.
    Answer(Response),
    /// Let the handler answer, then lay this patch over its JSON.
    Overlay(serde_json::Value),
}

/// Sets `__cf_bm` on responses to requests that do not carry one, like Cloudflare in front of
/// Garmin, so clients must merge `Set-Cookie` from every response.
async fn cf_bm(req: Request, next: Next) -> Response {
    let skip =
        req.uri().path().starts_with("/__fake/") || Cookies::from_headers(req.headers()).has("__cf_bm");
    let mut res = next.run(req).await;
    if !skip {
        let value =
            format!("{}{}", crate::auth::hex64(fastrand::u64(..)), crate::auth::hex64(fastrand::u64(..)));
        set_cookie(
            res.headers_mut(),
            &format!("__cf_bm={value}; Path=/; Max-Age=1800; HttpOnly; Secure; SameSite=None"),
        );
    }
    res
}

/// `cf-cache-status: DYNAMIC` on every answer that passed Cloudflare to Garmin's servers; Cloudflare's
/// own edge refusals ([`FromEdge`]) lack it (docs/garmin-web-api.md §0 `[S]`).
async fn cf_cache_status(req: Request, next: Next) -> Response {
    let skip = req.uri().path().starts_with("/__fake/");
    let mut res = next.run(req).await;
    if !skip && res.extensions().get::<FromEdge>().is_none() {
        res.headers_mut().insert("cf-cache-status", HeaderValue::from_static("DYNAMIC"));
    }
    res
}

/// On a "mainland-China network" the first origin sends every Connect request (pages, `/gc-api`,
/// the refresh call) to the connectus origin with a 302 to the same path; SSO pages stay put
/// (docs/garmin-web-api.md §0 `[S]`).
async fn front_end_redirect(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if path.starts_with("/portal/") || path.starts_with("/__fake/") {
        return next.run(req).await;
    }
    let front_ends = lock(&state.inner.front_ends).clone();
    let connectus = match front_ends.connectus_host {
        Some(host) if front_ends.mainland => host,
        _ => return next.run(req).await,
    };
    if header_text(req.headers(), "host").is_some_and(|h| h.eq_ignore_ascii_case(&connectus)) {
        return next.run(req).await;
    }
    let target = req.uri().path_and_query().map_or_else(|| path.to_owned(), ToString::to_string);
    let mut res = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("http://{connectus}{target}")) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    noted(res, "302: mainland network, moved to the connectus front end".to_owned())
}

/// Every unmatched route, anywhere: a 500 that names the request.
async fn no_route(method: Method, OriginalUri(uri): OriginalUri) -> Response {
    let body = format!("fake-garmin: unexpected {method} {uri} (no route)");
    (StatusCode::INTERNAL_SERVER_ERROR, [(header::CONTENT_TYPE, "text/plain")], body).into_response()
}

async fn not_found() -> Response {
    let body =
        "<!DOCTYPE html><html><head><title>Page Not Found</title></head><body><h1>404</h1></body></html>";
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/html")], body).into_response()
}

/// The credentials a request presents.
pub fn presented<'a>(cookies: &'a Cookies, headers: &'a HeaderMap) -> Presented<'a> {
    Presented {
        session: cookies.get("session"),
        jwt: cookies.get("JWT_WEB"),
        csrf: header_text(headers, "connect-csrf-token"),
        user_agent: header_text(headers, "user-agent"),
    }
}

/// A header's value, if present and readable.
pub fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Appends one `Set-Cookie` header (values the fake mints are always valid header text).
pub fn set_cookie(headers: &mut HeaderMap, cookie: &str) {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        headers.append(header::SET_COOKIE, value);
    }
}

/// An empty-bodied refusal, explained in the request log.
fn denied(status: StatusCode, why: &str) -> Response {
    tracing::debug!(%status, why, "fake-garmin refused a request");
    noted(status.into_response(), format!("{}: {why}", status.as_u16()))
}

/// Attaches a note for the request log.
pub fn noted(mut res: Response, note: String) -> Response {
    res.extensions_mut().insert(Note(note));
    res
}

/// The full request target (path and `?query`), even inside the nested `/gc-api` router.
fn target(req: &Request) -> String {
    let uri = req.extensions().get::<OriginalUri>().map_or(req.uri(), |o| &o.0);
    uri.path_and_query().map_or_else(|| uri.path().to_owned(), ToString::to_string)
}
