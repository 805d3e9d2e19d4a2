//! `garmin-mcp --demo`: the fake Garmin's year of generated data served in-process, so anyone can
//! try every tool with no account and no network. The session lives in a temporary folder (never the
//! person's real data folder) and every answer is labelled as demo data.

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
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
        let fake = FakeGarmin::start(config).await?;
        let issued = fake.issue_session(garmin::DEFAULT_USER_AGENT);
        let origins = Origins { connect: fake.base_url(), sso: fake.base_url() };
        let header: Vec<String> = issued.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let mut session = Session::from_cookie_header(
            Site::Global,
            origins,
            &header.join("; "),
            &issued.csrf_token,
            &issued.user_agent,
        )
        .map_err(std::io::Error::other)?;
        session.display_name = Some(issued.display_name);
        session.profile_id = Some(issued.profile_id);
        let dir = tempfile::Builder::new().prefix("garmin-mcp-demo-").tempdir()?;
        let store = SessionStore::new(dir.path());
        store.save(&session).map_err(std::io::Error::other)?;
        Ok(Demo { fake, dir, store })
    }
}
