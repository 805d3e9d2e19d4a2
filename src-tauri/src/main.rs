//! Entry point of the desktop app; everything else lives in the library so tests can build the same
//! app on tauri's mock runtime.

// No console window next to the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    garmin_desktop::run();
}
