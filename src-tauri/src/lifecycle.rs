//! How the app lives and ends on each OS, beyond what Tauri does by itself:
//!
//! * Closing the main window on macOS does not quit the app while a sidecar needs it (remote access
//!   is serving, or a request waits for the person): the window hides and the app stays in the
//!   Dock, as Mac apps that work in the background do; a click on the Dock icon, or the next request
//!   of a sidecar, brings the window back. Cmd-Q (the app menu's Quit, in Tauri's default macOS
//!   menu) always quits. On Windows and Linux closing the window quits, as before.
//! * The app's children end with it ([`app_bridge::children`]): on Windows the app holds itself in
//!   a kill-on-close job object from its first line, so even a crash or "End task" takes the
//!   remote-access server and a running tool check with it.

use tauri::{Manager as _, Runtime, Window, WindowEvent};

use crate::MAIN_WINDOW;
use crate::bridge::BridgeRequests;

/// Whether closing the main window should hide it instead, on the OS `target_os`
/// (`std::env::consts::OS`): on macOS, while remote access runs or a request waits for the person.
pub fn hide_instead_of_closing(target_os: &str, remote_access_on: bool, requests_waiting: usize) -> bool {
    target_os == "macos" && (remote_access_on || requests_waiting > 0)
}

/// The main window's close button, as [`hide_instead_of_closing`] decides.
pub fn on_close_requested<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    let WindowEvent::CloseRequested { api, .. } = event else { return };
    if window.label() != MAIN_WINDOW {
        return;
    }
    let remote_on = window.state::<app_bridge::remote::RemoteAccess>().view().running;
    let waiting = window.state::<BridgeRequests>().list().len();
    if hide_instead_of_closing(std::env::consts::OS, remote_on, waiting) {
        api.prevent_close();
        let _ = window.hide();
    }
}

/// Called first thing: the children this app starts end with it (Windows' job object).
pub fn tie_children_to_the_app() {
    if let Err(e) = app_bridge::children::end_children_with_this_process() {
        eprintln!(
            "garmin-desktop: could not tie the app's helper processes to it ({e}); quit the app from its window so they stop with it"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_macos_the_window_hides_while_a_sidecar_needs_the_app_and_closes_otherwise() {
        assert!(hide_instead_of_closing("macos", true, 0), "remote access is serving");
        assert!(hide_instead_of_closing("macos", false, 2), "requests wait for the person");
        assert!(!hide_instead_of_closing("macos", false, 0), "nothing needs the app: it quits");
        for os in ["windows", "linux"] {
            assert!(!hide_instead_of_closing(os, true, 3), "{os}: closing the window quits");
        }
    }
}
