//! Reading an answer's body, the one way every client in this crate does it: within a cap.
//!
//! Whoever answers — Garmin, the fake, or a stand-in named by `GARMIN_CONNECT_URL` or
//! `GARMIN_PERSONAL_API_URL` (a proxy, a test, anything the environment points at) — could send a
//! body of any size, and reading it whole first would hold all of it in memory (a 200 MB answer to
//! the token exchange once took 411 MiB). So the body is read chunk by chunk and the read stops, with
//! an error that says so, as soon as it passes the cap of what that kind of answer can be; a declared
//! `Content-Length` over the cap is refused before any of it is read.

use crate::{Error, Result};

/// Largest answer of the data APIs and of file downloads (an ultra's original FIT file, a long
/// activity's details with every sample, are a few tens of MB).
pub(crate) const MAX_DATA_BYTES: usize = 128 * 1024 * 1024;
/// Largest page or session answer (Connect's app page, a sign-in redirect, a token refresh).
pub(crate) const MAX_PAGE_BYTES: usize = 8 * 1024 * 1024;
/// Largest answer of the Personal API's token exchange: one JWT, a kilobyte or two.
pub(crate) const MAX_TOKEN_BYTES: usize = 64 * 1024;

/// The body of `response` (the answer to `method path`), at most `max` bytes.
pub(crate) async fn read(
    mut response: reqwest::Response,
    max: usize,
    method: &str,
    path: &str,
) -> Result<Vec<u8>> {
    let too_large = || Error::Decode {
        endpoint: format!("{method} {path}"),
        field: ".".to_owned(),
        message: format!(
            "the answer is larger than {}, more than such an answer ever is, so it was not read",
            size_words(max)
        ),
    };
    if response.content_length().is_some_and(|declared| declared > max as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| crate::error::network(method, path, &e))? {
        if body.len() + chunk.len() > max {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// [`read`] as text (UTF-8, with anything else replaced).
pub(crate) async fn read_text(
    response: reqwest::Response,
    max: usize,
    method: &str,
    path: &str,
) -> Result<String> {
    let bytes = read(response, max, method, path).await?;
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// `64 KiB`, `128 MiB`.
fn size_words(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{} KiB", bytes / 1024)
    }
}
