//! The one way every HTTP client of ours is made (Garmin's, the Personal API's, the app bridge's,
//! the OAuth metadata fetcher's, and the tests' clients): reqwest over rustls with *ring* as its
//! cryptography, configured here explicitly for each client.
//!
//! Why: reqwest's `rustls` feature links aws-lc (0.6 MB of code and curve tables in the shipped
//! sidecar) and *ring* does the same job in less; without that feature reqwest has no crypto provider
//! and panics when a client is built unless one was installed process-wide. Handing each client its
//! own rustls configuration cannot be forgotten by a test or a new code path the way a process-wide
//! `install_default` could: a `garmin::https::client().unwrap()` anywhere panics in the tests that reach it.
//!
//! The configuration is reqwest's own default, with *ring* in place of aws-lc: TLS 1.2 and 1.3,
//! certificates checked by the platform verifier (`rustls-platform-verifier`, the operating system's
//! root store, as reqwest does by default), no client certificate, and HTTP/2 or HTTP/1.1 offered
//! through ALPN.

use std::sync::Arc;

use crate::{Error, Result};

/// A reqwest client builder whose TLS is rustls on *ring* with the platform's certificate verifier.
/// Every other setting (redirects, timeouts, proxies) is the caller's. Fails only when the platform
/// verifier cannot start, with an error saying so.
pub fn client_builder() -> Result<reqwest::ClientBuilder> {
    let tls = tls_config().map_err(|e| Error::InvalidInput(format!("could not set up HTTPS: {e}")))?;
    Ok(reqwest::Client::builder().tls_backend_preconfigured(tls))
}

/// A client with reqwest's defaults but for its TLS ([`client_builder`]).
pub fn client() -> Result<reqwest::Client> {
    client_builder()?.build().map_err(|e| Error::InvalidInput(format!("could not set up HTTPS: {e}")))
}

fn tls_config() -> std::result::Result<rustls::ClientConfig, rustls::Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(Arc::clone(&provider))?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

#[cfg(test)]
mod tests {
    use rustls::crypto::CryptoProvider;

    use super::*;

    #[test]
    fn the_tls_config_offers_http2_and_http1_on_ring() {
        let config = tls_config().expect("the platform verifier starts");
        assert_eq!(config.alpn_protocols, [b"h2".to_vec(), b"http/1.1".to_vec()]);
        let ring = rustls::crypto::ring::default_provider();
        let suites = |p: &CryptoProvider| p.cipher_suites.iter().map(|s| s.suite()).collect::<Vec<_>>();
        assert_eq!(suites(config.crypto_provider()), suites(&ring));
    }

    #[tokio::test]
    async fn a_client_builds_without_a_process_wide_crypto_provider() {
        assert!(CryptoProvider::get_default().is_none(), "nothing installs a process-wide provider");
        client_builder().unwrap().build().expect("a client");
    }
}
