//! The demo account: the project's fake Garmin Connect (`sidecar/fake-garmin`), run inside the app on
//! a loopback port, so anyone can try every feature before signing in, with no account and no
//! network. Its sign-in page is clearly labelled FAKE, fills in sample credentials and submits
//! itself; the app then reads the sign-in window's cookies exactly as for Garmin.
//!
//! The fake starts on first use, on a thread of its own, and lives as long as the app. Its cookies are not marked `Secure`:
//! it speaks plain http on 127.0.0.1, and WebKit keeps `Secure` cookies only from https origins.

use fake_garmin::{BrowserOptions, FakeConfig, FakeGarmin};
use garmin::Origins;
use tokio::sync::OnceCell;

use crate::signin::{SignInError, Target};

/// The in-app fake Garmin of the demo account (managed state).
#[derive(Debug, Default)]
pub struct DemoGarmin {
    fake: OnceCell<FakeGarmin>,
}

impl DemoGarmin {
    /// The running fake, started on the first call (must run inside the async runtime).
    pub async fn get_or_start(&self) -> Result<&FakeGarmin, SignInError> {
        self.fake
            .get_or_try_init(|| async {
                // On its own thread, as the real Garmin is elsewhere: its CPU-heavy answers (a sync's
                // day-long series) never take the workers the app's own tasks run on.
                let fake = FakeGarmin::start_on_own_thread(FakeConfig::default()).await.map_err(|e| {
                    SignInError::Window(format!("the demo account's local server could not start: {e}"))
                })?;
                fake.set_browser_options(BrowserOptions { secure_cookies: false, auto_sign_in: true });
                // So a person running the app from a terminal sees where the demo lives.
                eprintln!("garmin-desktop: the demo account's fake Garmin serves {}", fake.base_url());
                Ok(fake)
            })
            .await
    }

    /// Where a demo sign-in happens: the fake's sign-in page, returning to its `/app/`.
    pub async fn target(&self) -> Result<Target, SignInError> {
        let fake = self.get_or_start().await?;
        let origins = Origins { connect: fake.base_url(), sso: fake.base_url() };
        Target::demo(origins, &fake.sign_in_url())
    }
}
