//! The bridge on systems that are neither Unix nor Windows: every call says it is unsupported, so
//! the sidecar falls back to its preview and the app to its own windows.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::framing::Incoming;
use crate::{BridgeError, Reply, Request};

/// The sidecar's end (unsupported here).
#[derive(Clone, Debug)]
pub struct AppLink {
    _dir: PathBuf,
}

impl AppLink {
    /// The app of the data folder `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        AppLink { _dir: dir.into() }
    }

    /// Never running here.
    pub async fn is_running(&self) -> bool {
        false
    }

    /// Always [`BridgeError::Unsupported`].
    pub async fn ask(&self, _request: &Request, _wait: Duration) -> Result<Reply, BridgeError> {
        Err(BridgeError::Unsupported)
    }
}

/// The app's end (unsupported here).
#[derive(Debug)]
pub struct AppListener;

impl AppListener {
    /// Always [`BridgeError::Unsupported`].
    pub async fn bind(_dir: &Path) -> Result<Self, BridgeError> {
        Err(BridgeError::Unsupported)
    }

    /// Never returns a request.
    pub async fn accept(&self) -> Result<Incoming, BridgeError> {
        Err(BridgeError::Unsupported)
    }
}
