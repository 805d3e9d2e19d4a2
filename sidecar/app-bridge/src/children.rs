//! The app's children (the remote-access server, the tool check's `garmin-mcp check`) end with the
//! app, on every OS, without relying on signals:
//!
//! * An orderly quit stops them explicitly: `RemoteAccess::shutdown_now` on the app's exit, and
//!   `kill_on_drop` on every child handle (a kill is `TerminateProcess` on Windows).
//! * A crash, or "End task" in the Task Manager, runs no destructor. On Windows the app therefore
//!   puts itself into a job object that kills every process in it when its last handle closes
//!   (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`): the handle is held until the app's process ends, and
//!   the children it starts afterwards are in the job with it ([`end_children_with_this_process`]).
//!   (On Linux and macOS a crashed app still leaves a running remote-access server behind, as it
//!   always did; the tool check ends by itself within its time limit.)
//! * A console child of the windowless app would open a console window on Windows:
//!   [`no_console_window`] starts it without one.

/// Makes every process this one starts from now on end when this process ends, however it ends.
/// Windows: a kill-on-close job object holding this process (nested jobs work since Windows 8).
/// Elsewhere nothing is needed here (see the module's docs). Call it once, early.
#[cfg(windows)]
pub fn end_children_with_this_process() -> std::io::Result<()> {
    job::hold_this_process()
}

/// Makes every process this one starts from now on end when this process ends (nothing to do
/// outside Windows: see the module's docs).
#[cfg(not(windows))]
pub fn end_children_with_this_process() -> std::io::Result<()> {
    Ok(())
}

/// Starts `command` without a console window of its own (Windows' `CREATE_NO_WINDOW`; nothing
/// elsewhere). The app has no console, so a console program it starts would otherwise get one.
pub fn no_console_window(command: &mut tokio::process::Command) -> &mut tokio::process::Command {
    #[cfg(windows)]
    command.creation_flags(windows_sys::Win32::System::Threading::CREATE_NO_WINDOW);
    command
}

#[cfg(windows)]
mod job {
    #![allow(unsafe_code, reason = "job objects have no safe wrapper in windows-sys")]
    //! The job object: one `unsafe` call per Windows function, each with its handle owned by Rust.

    use std::os::windows::io::{AsRawHandle as _, FromRawHandle as _, OwnedHandle};
    use std::sync::OnceLock;

    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation, SetInformationJobObject,
    };
    use windows_sys::Win32::System::Threading::GetCurrentProcess;

    /// The job's handle, held for the life of the process: when the process ends, Windows closes
    /// it, and closing the last handle kills what is left in the job.
    static JOB: OnceLock<OwnedHandle> = OnceLock::new();

    pub(super) fn hold_this_process() -> std::io::Result<()> {
        if JOB.get().is_some() {
            return Ok(());
        }
        // SAFETY: no attributes, no name: a new anonymous job whose handle we own below.
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if raw.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: CreateJobObjectW returned a new handle we own.
        let job = unsafe { OwnedHandle::from_raw_handle(raw) };
        // SAFETY: a plain-data structure, valid when zeroed.
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let size = u32::try_from(size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>()).unwrap_or(u32::MAX);
        // SAFETY: `limits` is a valid structure of the size given, alive for the call.
        let set = unsafe {
            SetInformationJobObject(
                job.as_raw_handle(),
                JobObjectExtendedLimitInformation,
                (&raw const limits).cast(),
                size,
            )
        };
        if set == 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: both handles are live; the current-process pseudo-handle needs no closing.
        if unsafe { AssignProcessToJobObject(job.as_raw_handle(), GetCurrentProcess()) } == 0 {
            return Err(std::io::Error::last_os_error());
        }
        let _ = JOB.set(job);
        Ok(())
    }
}

// Run on Windows (under Wine in CI: `cargo xtask windows`): the test binary plays the app and the
// child itself, chosen by an environment variable.
#[cfg(all(test, windows))]
mod tests {
    use std::io::{BufRead as _, BufReader, Read as _};
    use std::process::{Command, Stdio};
    use std::time::Duration;

    const ROLE: &str = "APP_BRIDGE_JOB_TEST_ROLE";

    /// An app: ties its children to itself, starts a long-lived child sharing its stdout, says so,
    /// and waits for it until killed.
    #[test]
    #[ignore = "a helper process of children_end_with_the_app_even_when_it_is_killed"]
    fn job_test_app() {
        if std::env::var(ROLE).as_deref() != Ok("app") {
            return;
        }
        super::end_children_with_this_process().unwrap();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "children::tests::job_test_child", "--ignored", "--nocapture"])
            .env(ROLE, "child")
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        println!("child {}", child.id());
        // Waits for the child until the test kills this process.
        let _ = child.wait();
    }

    /// A child that would outlive the test by far if nothing ended it.
    #[test]
    #[ignore = "a helper process of children_end_with_the_app_even_when_it_is_killed"]
    fn job_test_child() {
        if std::env::var(ROLE).as_deref() == Ok("child") {
            std::thread::sleep(Duration::from_secs(120));
        }
    }

    /// The app is killed outright (no destructor runs); its child must end with it. Both hold the
    /// write end of one stdout pipe, so the read end sees its end only once both are gone.
    #[test]
    fn children_end_with_the_app_even_when_it_is_killed() {
        let mut app = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "children::tests::job_test_app", "--ignored", "--nocapture"])
            .env(ROLE, "app")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(app.stdout.take().unwrap());
        let mut line = String::new();
        while !line.starts_with("child ") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "the app ended before starting its child");
        }
        app.kill().unwrap();
        let _ = app.wait();
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut rest = Vec::new();
            let _ = out.read_to_end(&mut rest);
            let _ = done.send(());
        });
        assert!(
            ended.recv_timeout(Duration::from_secs(30)).is_ok(),
            "the child ({}) outlived the killed app",
            line.trim()
        );
    }
}
