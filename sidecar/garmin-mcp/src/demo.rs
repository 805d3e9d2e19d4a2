//! `garmin-mcp --demo`: the fake Garmin's year of generated data served in-process, so anyone can
//! try every tool with no account and no network. The session lives in a temporary folder (never the
//! person's real data folder) and every answer is labelled as demo data.

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin, IssuedSession};
use garmin::SessionStore;

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
        let mut folder = tempfile::Builder::new();
        folder.prefix("garmin-mcp-demo-");
        // Private from the start, as every data folder is (else the store warns and fixes it).
        #[cfg(unix)]
        folder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
        let dir = folder.tempdir()?;
        let store = SessionStore::new(dir.path());
        sign_in(&fake, garmin::DEFAULT_USER_AGENT, &store)?;
        Ok(Demo { fake, dir, store })
    }
}

/// Signs into `fake` as a browser with `user_agent` would and saves the session in `store`, the way
/// the desktop app hands a session over (`garmin::fake::sign_in`). Used by the demo, the tests and
/// the benchmarks.
pub fn sign_in(fake: &FakeGarmin, user_agent: &str, store: &SessionStore) -> std::io::Result<IssuedSession> {
    garmin::fake::sign_in(fake, user_agent, store)
}
