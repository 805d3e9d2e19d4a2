//! The last step of every sign-in (window or pasted cookies): prove the new session with one
//! authenticated call, in memory, and only then save it to the shared session store, where every
//! `garmin-mcp` process picks it up. Nothing is saved unless Garmin accepted the session.

use garmin::{Client, Session, SessionStore};

use super::SignInError;

/// Checks `session` with Garmin (`verify`, which also records who the account is) and saves it in
/// `store`; returns what was saved. A refusal becomes [`SignInError::Rejected`], or
/// [`SignInError::MissingCookies`] naming what the jar lacked: the check decides whether a jar
/// works (no cookie is required up front), and only its failure names a missing one.
pub async fn validate_and_save(session: Session, store: &SessionStore) -> Result<Session, SignInError> {
    let missing = session.missing_cookie_hint();
    let connect = session.origins.connect.clone();
    let client = Client::builder().session(session).build()?;
    let refused = match client.verify().await {
        Ok(_) => None,
        Err(garmin::Error::SessionExpired { detail, .. }) => Some(detail),
        Err(e) if e.needs_sign_in() => Some(e.to_string()),
        Err(e) => return Err(e.into()),
    };
    if let Some(detail) = refused {
        return Err(match missing {
            Some(missing) => {
                // The client may already have named it; say it once.
                let detail = detail.replace(&format!("; {missing}"), "");
                SignInError::MissingCookies { missing, connect, detail }
            }
            None => SignInError::Rejected { detail },
        });
    }
    // The check may have renewed the credentials in memory: save what the client holds now.
    let session = client.session();
    let (store, saved) = (store.clone(), session.clone());
    tokio::task::spawn_blocking(move || store.save(&saved))
        .await
        .map_err(|e| SignInError::Window(format!("saving the session stopped unexpectedly: {e}")))?
        .map_err(garmin::Error::from)?;
    Ok(session)
}

#[cfg(test)]
mod tests {
    use fake_garmin::{FakeConfig, FakeGarmin};
    use garmin::{Origins, Site};

    use super::*;

    const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 GarminDesktopTests";

    fn session_for(fake: &FakeGarmin, forge: bool) -> Session {
        let issued = fake.issue_session(UA);
        let origins = Origins { connect: fake.base_url(), sso: fake.base_url() };
        let header = if forge {
            issued.cookie_header().replace("session=", "session=forged")
        } else {
            issued.cookie_header()
        };
        Session::from_cookie_header(Site::Global, origins, &header, &issued.csrf_token, UA).unwrap()
    }

    #[tokio::test]
    async fn an_accepted_session_is_saved_privately_with_the_account_garmin_reports() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path().join("data"));
        let saved = validate_and_save(session_for(&fake, false), &store).await.unwrap();
        assert_eq!(saved.display_name.as_deref(), Some("fake-athlete-1"));
        let on_disk = store.load().unwrap().expect("session saved");
        assert_eq!(on_disk.display_name.as_deref(), Some("fake-athlete-1"));
        assert_eq!(on_disk.user_agent, UA);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "session.json is private");
        }
    }

    #[tokio::test]
    async fn a_session_garmin_refuses_is_rejected_and_nothing_is_saved() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let err = validate_and_save(session_for(&fake, true), &store).await.unwrap_err();
        assert!(matches!(err, SignInError::Rejected { .. }), "{err:?}");
        assert!(err.to_string().contains("sign in again"), "{err}");
        assert!(store.load().unwrap().is_none(), "nothing saved");
    }

    #[tokio::test]
    async fn a_sign_in_without_a_session_cookie_is_saved_once_garmin_accepts_it() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.unwrap();
        fake.set_session_options(fake_garmin::SessionOptions {
            no_session_cookie: true,
            ..Default::default()
        });
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let session = session_for(&fake, false);
        assert!(!session.cookies.iter().any(|c| c.name == "session"));
        validate_and_save(session, &store).await.unwrap();
        assert!(store.load().unwrap().is_some());
    }

    #[tokio::test]
    async fn a_refused_jar_names_the_missing_cookie_only_after_the_check() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let mut session = session_for(&fake, false);
        session.cookies.retain(|c| c.name != "JWT_WEB" && c.name != "session");
        let err = validate_and_save(session, &store).await.unwrap_err();
        assert!(matches!(err, SignInError::MissingCookies { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("no `JWT_WEB` cookie") && text.contains("Paste cookies"), "{text}");
        assert!(fake.requests().iter().any(|r| r.path.ends_with("/socialProfile")), "the check was made");
        assert!(store.load().unwrap().is_none());
    }

    #[tokio::test]
    async fn an_unreachable_garmin_is_a_network_error_not_a_rejection() {
        let dir = tempfile::tempdir().unwrap();
        // A port nothing listens on: bind, note it, let it go.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let origins =
            Origins { connect: format!("http://127.0.0.1:{port}"), sso: format!("http://127.0.0.1:{port}") };
        let session =
            Session::from_cookie_header(Site::Cn, origins, "session=s; JWT_WEB=j", "t", UA).unwrap();
        let err = validate_and_save(session, &SessionStore::new(dir.path())).await.unwrap_err();
        assert!(matches!(&err, SignInError::Garmin(e) if e.kind() == garmin::ErrorKind::Network), "{err:?}");
    }
}
