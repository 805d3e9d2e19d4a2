//! `garmin-mcp --demo`: the fake Garmin's year of generated data served in-process, so anyone can
//! try every tool with no account and no network. The session lives in a temporary folder (never the
//! person's real data folder) and every answer is labelled as demo data.

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin, IssuedSession};
use garmin::{Origins, Session, SessionStore, Site};

/// The label put in front of every demo answer.
pub const DEMO_LABEL: &str = "[Demo data: a fake athlete, not your Garmin account]";

/// A running demo: the fake Garmin and the temporary data folder holding its session.
#[derive(Debug)]
pub struct Demo {
    /// The fake Garmin serving the demo account.
    pub fake: FakeGarmin,
    /// The temporary data folder (removed when the demo ends).
    pub dir: tempfile::TempDir,
    /// The store holding the demo session.
    pub store: SessionStore,
}

impl Demo {
    /// Starts the fake Garmin on a free loopback port, signs the demo athlete in and saves the
    /// session in a temporary folder. `today` anchors the data set (default: today).
    pub async fn start(today: Option<NaiveDate>) -> std::io::Result<Demo> {
        let mut config = FakeConfig::default();
        if let Some(today) = today {
            config.today = today;
        }
        // On its own thread, as the real Garmin is elsewhere: serving a full sync's series must not
        // take the workers the server answers with.
        let fake = FakeGarmin::start_on_own_thread(config).await?;
        let dir = tempfile::Builder::new().prefix("garmin-mcp-demo-").tempdir()?;
        let store = SessionStore::new(dir.path());
        sign_in(&fake, garmin::DEFAULT_USER_AGENT, &store)?;
        Ok(Demo { fake, dir, store })
    }
}

/// Signs into `fake` as a browser with `user_agent` would and saves the session in `store`, the way
/// the desktop app hands a session over. Used by the demo, the tests and the benchmarks.
pub fn sign_in(fake: &FakeGarmin, user_agent: &str, store: &SessionStore) -> std::io::Result<IssuedSession> {
    let issued = fake.issue_session(user_agent);
    let origins = Origins { connect: fake.base_url(), sso: fake.base_url() };
    let mut session = Session::from_cookie_header(
        Site::Global,
        origins,
        &issued.cookie_header(),
        &issued.csrf_token,
        user_agent,
    )
    .map_err(std::io::Error::other)?;
    session.display_name = Some(issued.display_name.clone());
    session.profile_id = Some(issued.profile_id);
    store.save(&session).map_err(std::io::Error::other)?;
    Ok(issued)
}
