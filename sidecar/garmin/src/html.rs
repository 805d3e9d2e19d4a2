//! Reading what the Connect web app's HTML page tells a signed-in browser: the `csrf-token` meta tag
//! and the `window.VIEWER_SOCIAL_PROFILE` global. Used by the last-resort refresh (re-reading the
//! `/app` page with the stored cookies) and by sign-in.

use serde::Deserialize;

/// What the `/app` page says about the session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AppPage {
    /// The `csrf-token` meta tag's content.
    pub csrf_token: Option<String>,
    /// `VIEWER_SOCIAL_PROFILE.displayName`.
    pub display_name: Option<String>,
    /// `VIEWER_SOCIAL_PROFILE.profileId`.
    pub profile_id: Option<u64>,
    /// `VIEWER_SOCIAL_PROFILE.fullName`.
    pub full_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ViewerProfile {
    display_name: Option<String>,
    profile_id: Option<serde_json::Value>,
    full_name: Option<String>,
}

pub(crate) fn parse_app_page(html: &str) -> AppPage {
    let mut page = AppPage { csrf_token: csrf_meta(html), ..AppPage::default() };
    if let Some(profile) = viewer_profile(html) {
        page.display_name = profile.display_name.filter(|s| !s.is_empty());
        page.profile_id = profile.profile_id.and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()));
        page.full_name = profile.full_name;
    }
    page
}

/// Finds `<meta name="csrf-token" content="…">` whatever the attribute order or quoting.
fn csrf_meta(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(pos) = lower[from..].find("<meta") {
        let start = from + pos;
        let end = start + lower[start..].find('>')?;
        let tag = &html[start..end];
        if attribute(tag, "name").is_some_and(|n| n.eq_ignore_ascii_case("csrf-token")) {
            return attribute(tag, "content").filter(|c| !c.is_empty());
        }
        from = end;
    }
    None
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(pos) = lower[from..].find(name) {
        let at = from + pos;
        from = at + name.len();
        let preceded_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        let rest = tag[from..].trim_start();
        if !preceded_ok || !rest.starts_with('=') {
            continue;
        }
        let value = rest[1..].trim_start();
        let quote = value.chars().next()?;
        return if quote == '"' || quote == '\'' {
            value[1..].split(quote).next().map(str::to_owned)
        } else {
            value.split(|c: char| c.is_whitespace() || c == '/').next().map(str::to_owned)
        };
    }
    None
}

fn viewer_profile(html: &str) -> Option<ViewerProfile> {
    let at = html.find("VIEWER_SOCIAL_PROFILE")?;
    let rest = &html[at..];
    let brace = rest.find('{')?;
    let mut stream = serde_json::Deserializer::from_str(&rest[brace..]).into_iter::<ViewerProfile>();
    stream.next()?.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_page_yields_csrf_and_viewer_profile() {
        let html = r#"<html><head><meta charset="utf-8"><meta content='abc-123' name="csrf-token" />
            <script>window.VIEWER_SOCIAL_PROFILE = {"displayName":"runner_1","profileId":1000001,"fullName":"Alex"};
            window.USE_DI_SESSION = true;</script></head></html>"#;
        let page = parse_app_page(html);
        assert_eq!(page.csrf_token.as_deref(), Some("abc-123"));
        assert_eq!(page.display_name.as_deref(), Some("runner_1"));
        assert_eq!(page.profile_id, Some(1_000_001));
        assert_eq!(page.full_name.as_deref(), Some("Alex"));
    }

    #[test]
    fn page_without_session_markers_yields_nothing() {
        let page = parse_app_page("<html><meta name=\"viewport\" content=\"x\"><body>Sign in</body></html>");
        assert_eq!(page, AppPage::default());
    }
}
