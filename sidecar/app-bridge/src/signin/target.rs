//! Where one sign-in happens and how the sign-in window's pages are read: the Garmin site with its
//! origins and SSO sign-in URL (or the in-app demo fake), and which loaded page means "signed in".
//!
//! Garmin's SSO ends by redirecting to the Connect web app (`/app/…`, older `/modern/…`). A page
//! that finished loading there is the moment to read cookies and the CSRF token. The site may have
//! more than one Connect front end: from mainland-China networks an international account lands on
//! `connectus.garmin.cn` (docs/garmin-web-api.md §0), and the session then lives there — its
//! cookies are read for that host and its origin stored. Landing on the *other* site's Connect host
//! means the account lives there (reference §2.1: a `.com` sign-in has been seen to bounce to the
//! China region).

use garmin::{Origins, Site};
use url::Url;

use super::SignInError;

/// One sign-in's destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    site: Site,
    origins: Origins,
    demo: bool,
    sign_in_url: Url,
    connect: Url,
    sso: Url,
}

/// What a page that finished loading in the sign-in window means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Still signing in (SSO form, MFA, consent…): wait.
    Elsewhere,
    /// The Connect web app of the picked site, on the front end `connect` (an origin): signed
    /// in, read the session for that front end now.
    ConnectApp {
        /// The Connect origin the page is on, e.g. `https://connectus.garmin.cn`.
        connect: String,
    },
    /// The Connect web app of the other Garmin site: the account lives there.
    OtherSite(Site),
}

impl Target {
    /// Garmin's own sign-in page for `site`, with `origins` (the site's, or an override for tests).
    pub fn garmin(site: Site, origins: Origins) -> Result<Target, SignInError> {
        let sign_in_url = site.sign_in_url(&origins);
        Target::new(site, origins, false, &sign_in_url)
    }

    /// The demo account: the fake Garmin inside the app at `origins`, signing in at `sign_in_url`.
    pub fn demo(origins: Origins, sign_in_url: &str) -> Result<Target, SignInError> {
        Target::new(Site::Global, origins, true, sign_in_url)
    }

    fn new(site: Site, origins: Origins, demo: bool, sign_in_url: &str) -> Result<Target, SignInError> {
        let parse = |what: &str, url: &str| {
            Url::parse(url).map_err(|e| {
                SignInError::InvalidInput(format!(
                    "the {what} address `{url}` is not a valid URL ({e}); check GARMIN_CONNECT_URL / GARMIN_SSO_URL"
                ))
            })
        };
        let connect = parse("Garmin Connect", &origins.connect)?;
        let sso = parse("Garmin sign-in", &origins.sso)?;
        let sign_in_url = parse("Garmin sign-in page", sign_in_url)?;
        Ok(Target { site, origins, demo, sign_in_url, connect, sso })
    }

    /// The site the session will belong to.
    pub fn site(&self) -> Site {
        self.site
    }

    /// The origins the session will use.
    pub fn origins(&self) -> &Origins {
        &self.origins
    }

    /// True for the demo account (the in-app fake Garmin).
    pub fn is_demo(&self) -> bool {
        self.demo
    }

    /// The page the sign-in window opens.
    pub fn sign_in_url(&self) -> &Url {
        &self.sign_in_url
    }

    /// The URLs whose cookies make up the session: the data API on the Connect host (which also
    /// gets the parent-domain cookies), then the SSO host (its `CASTGC` allows a silent re-login).
    pub fn cookie_urls(&self) -> Vec<Url> {
        let mut urls = Vec::new();
        for (origin, path) in [(&self.connect, "/gc-api/"), (&self.sso, "/portal/")] {
            let mut url = origin.clone();
            url.set_path(path);
            if !urls.iter().any(|u: &Url| same_origin(u, &url)) {
                urls.push(url);
            }
        }
        urls
    }

    /// The Connect host name, e.g. `connect.garmin.com` (cookies for it are stored host-only).
    pub fn connect_host(&self) -> &str {
        self.connect.host_str().unwrap_or_default()
    }

    /// What `url`, a page that just finished loading in the sign-in window, means.
    pub fn landing(&self, url: &Url) -> Landing {
        if !is_connect_app(url.path()) {
            return Landing::Elsewhere;
        }
        if same_origin(url, &self.connect) {
            return Landing::ConnectApp { connect: self.origins.connect.clone() };
        }
        if !self.demo {
            let origin = url.origin().ascii_serialization();
            match Site::of_front_end(&origin) {
                Some(site) if site == self.site => return Landing::ConnectApp { connect: origin },
                Some(other) => return Landing::OtherSite(other),
                None => {}
            }
        }
        Landing::Elsewhere
    }

    /// This target with the Connect front end the sign-in actually landed on (`connect`, an origin
    /// from [`Landing::ConnectApp`]): its cookies are read for that host and the session keeps that
    /// origin. The SSO origin stays.
    pub fn landed_on(&self, connect: &str) -> Result<Target, SignInError> {
        if connect.trim_end_matches('/').eq_ignore_ascii_case(self.origins.connect.trim_end_matches('/')) {
            return Ok(self.clone());
        }
        let origins =
            Origins { connect: connect.trim_end_matches('/').to_owned(), sso: self.origins.sso.clone() };
        Target::new(self.site, origins, self.demo, self.sign_in_url.as_str())
    }
}

fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str().map(str::to_ascii_lowercase) == b.host_str().map(str::to_ascii_lowercase)
        && a.port_or_known_default() == b.port_or_known_default()
}

/// The Connect web app's pages, but not its sign-in or sign-out pages.
fn is_connect_app(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let app = ["/app", "/modern"].iter().any(|root| lower == *root || lower.starts_with(&format!("{root}/")));
    app && !["sign-in", "signin", "logout", "signout", "sign-out"].iter().any(|word| lower.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn garmin_target_opens_the_sites_own_sso_page() {
        let cn = Target::garmin(Site::Cn, Site::Cn.default_origins()).unwrap();
        assert!(cn.sign_in_url().as_str().starts_with("https://sso.garmin.cn/portal/sso/zh-CN/sign-in?"));
        assert!(!cn.is_demo());
        let global = Target::garmin(Site::Global, Site::Global.default_origins()).unwrap();
        assert_eq!(global.connect_host(), "connect.garmin.com");
        assert!(global.sign_in_url().as_str().contains("service=https%3A%2F%2Fconnect.garmin.com%2Fapp%2F"));
    }

    #[test]
    fn only_the_connect_app_of_the_picked_site_counts_as_signed_in() {
        let target = Target::garmin(Site::Global, Site::Global.default_origins()).unwrap();
        let signed_in = Landing::ConnectApp { connect: "https://connect.garmin.com".into() };
        assert_eq!(target.landing(&url("https://connect.garmin.com/app/home")), signed_in);
        assert_eq!(target.landing(&url("https://connect.garmin.com/modern/")), signed_in);
        assert_eq!(target.landing(&url("https://connect.garmin.com/app")), signed_in);
        for still_signing_in in [
            "https://sso.garmin.com/portal/sso/en-US/sign-in?service=x",
            "https://sso.garmin.com/portal/sso/en-US/mfa",
            "https://connect.garmin.com/signin/",
            "https://connect.garmin.com/app/logout",
            "https://connect.garmin.com/application",
            "http://connect.garmin.com/app/",
        ] {
            assert_eq!(target.landing(&url(still_signing_in)), Landing::Elsewhere, "{still_signing_in}");
        }
    }

    #[test]
    fn landing_on_connectus_is_signed_in_on_the_in_china_front_end_of_the_international_site() {
        let target = Target::garmin(Site::Global, Site::Global.default_origins()).unwrap();
        let landing = target.landing(&url("https://connectus.garmin.cn/app/home"));
        assert_eq!(landing, Landing::ConnectApp { connect: "https://connectus.garmin.cn".into() });
        let Landing::ConnectApp { connect } = landing else { unreachable!() };
        let landed = target.landed_on(&connect).unwrap();
        assert_eq!(landed.origins().connect, "https://connectus.garmin.cn");
        assert_eq!(landed.connect_host(), "connectus.garmin.cn");
        let urls: Vec<String> = landed.cookie_urls().iter().map(ToString::to_string).collect();
        assert_eq!(urls, ["https://connectus.garmin.cn/gc-api/", "https://sso.garmin.com/portal/"]);
        assert_eq!(landed.site(), Site::Global);
        // Its sign-in page is still the one picked; connectus is not a sign-in page.
        assert_eq!(target.landing(&url("https://connectus.garmin.cn/signin/")), Landing::Elsewhere);
        // A China-site pick that lands on connectus belongs to an international account.
        let cn = Target::garmin(Site::Cn, Site::Cn.default_origins()).unwrap();
        assert_eq!(cn.landing(&url("https://connectus.garmin.cn/app/")), Landing::OtherSite(Site::Global));
    }

    #[test]
    fn landing_on_the_other_sites_connect_app_is_the_wrong_site() {
        let target = Target::garmin(Site::Global, Site::Global.default_origins()).unwrap();
        assert_eq!(target.landing(&url("https://connect.garmin.cn/app/home")), Landing::OtherSite(Site::Cn));
        let target = Target::garmin(Site::Cn, Site::Cn.default_origins()).unwrap();
        assert_eq!(target.landing(&url("https://connect.garmin.com/app/")), Landing::OtherSite(Site::Global));
        // Garmin's SSO of the other site is only a step on the way, not an answer.
        assert_eq!(
            target.landing(&url("https://sso.garmin.com/portal/sso/en-US/sign-in")),
            Landing::Elsewhere
        );
    }

    #[test]
    fn demo_target_lands_on_the_loopback_fake_and_reads_one_host() {
        let origins =
            Origins { connect: "http://127.0.0.1:4321".into(), sso: "http://127.0.0.1:4321".into() };
        let demo = Target::demo(origins, "http://127.0.0.1:4321/portal/sso/en-US/sign-in?service=x").unwrap();
        assert!(demo.is_demo());
        assert_eq!(
            demo.landing(&url("http://127.0.0.1:4321/app/")),
            Landing::ConnectApp { connect: "http://127.0.0.1:4321".into() }
        );
        assert_eq!(demo.landing(&url("http://127.0.0.1:9999/app/")), Landing::Elsewhere, "another port");
        assert_eq!(demo.landing(&url("https://connect.garmin.cn/app/")), Landing::Elsewhere);
        let urls: Vec<String> = demo.cookie_urls().iter().map(ToString::to_string).collect();
        assert_eq!(urls, ["http://127.0.0.1:4321/gc-api/"]);
        let global = Target::garmin(Site::Global, Site::Global.default_origins()).unwrap();
        let urls: Vec<String> = global.cookie_urls().iter().map(ToString::to_string).collect();
        assert_eq!(urls, ["https://connect.garmin.com/gc-api/", "https://sso.garmin.com/portal/"]);
    }

    #[test]
    fn a_broken_origin_override_is_reported_with_the_variable_to_fix() {
        let origins = Origins { connect: "not a url".into(), sso: "https://sso.garmin.com".into() };
        let err = Target::garmin(Site::Global, origins).unwrap_err().to_string();
        assert!(err.contains("GARMIN_CONNECT_URL") && err.contains("not a url"), "{err}");
    }
}
