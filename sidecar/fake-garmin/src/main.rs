//! `fake-garmin`: runs the fake Garmin Connect standalone, for the offline demo account, the
//! desktop app's E2E run and tests that spawn several client processes against one server.
//! Serves until Ctrl-C or SIGTERM; the control API is under `/__fake/`.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use chrono::NaiveDate;
use clap::{Parser, ValueEnum};
use fake_garmin::{FakeConfig, FakeGarmin, FakeSite};

/// A fake Garmin Connect (web surface + FAKE sign-in page) on 127.0.0.1.
#[derive(Debug, Parser)]
#[command(name = "fake-garmin", version)]
struct Args {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 8765)]
    port: u16,
    /// Which Garmin Connect to imitate.
    #[arg(long, value_enum, default_value_t = Site::Global)]
    site: Site,
    /// Lifetime of one JWT_WEB access cookie, in seconds.
    #[arg(long)]
    jwt_lifetime_secs: Option<u64>,
    /// Last day of the generated history (YYYY-MM-DD); default today.
    #[arg(long)]
    today: Option<NaiveDate>,
    /// Seed of the generated data set.
    #[arg(long)]
    seed: Option<u64>,
    /// Sign in at start-up as this User-Agent and print the session (cookies, CSRF) as JSON on
    /// stdout. It prints secrets of this fake: that is its purpose (demos, scripted clients).
    #[arg(long, value_name = "UA")]
    issue_session_for_ua: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Site {
    Global,
    Cn,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args = Args::parse();
    let mut config = FakeConfig {
        port: args.port,
        site: match args.site {
            Site::Global => FakeSite::Global,
            Site::Cn => FakeSite::Cn,
        },
        ..FakeConfig::default()
    };
    if let Some(secs) = args.jwt_lifetime_secs {
        config.jwt_lifetime = Duration::from_secs(secs);
    }
    if let Some(today) = args.today {
        config.today = today;
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    let fake = match FakeGarmin::start(config).await {
        Ok(fake) => fake,
        Err(e) => {
            eprintln!("fake-garmin: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return ExitCode::FAILURE;
        }
    };
    eprintln!("fake-garmin: serving {} — sign in at {}", fake.base_url(), fake.sign_in_url());
    if let Some(ua) = args.issue_session_for_ua {
        match serde_json::to_string(&fake.issue_session(&ua)) {
            Ok(json) => {
                // Not println!: a closed pipe must not panic the server.
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{json}").and_then(|()| out.flush());
            }
            Err(e) => eprintln!("fake-garmin: cannot print the session: {e}"),
        }
    }
    stop_signal().await;
    fake.shutdown().await;
    ExitCode::SUCCESS
}

/// Resolves on Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
