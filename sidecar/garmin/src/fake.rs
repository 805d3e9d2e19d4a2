//! Signing in to the fake Garmin (`fake-garmin`, feature `fake`) the way the desktop app hands a
//! session over: the session the fake issues for a browser, saved in a session store. Written once
//! for the offline demo account (`garmin-mcp --demo`) and the tests of every crate.

use fake_garmin::{FakeGarmin, IssuedSession};

use crate::{Origins, Session, SessionStore, Site};

/// Signs into `fake` as a browser with `user_agent` would and saves the session, with the
/// account's displayName and profile id, in `store`.
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
