//! The page's Content-Security-Policy hash: the browser runs an inline script only if the
//! policy lists `'sha256-…'` of its exact text, so the hash is computed from the script as
//! written, when the page is written (SHA-256 from `sha2`, standard padded base64 from
//! `base64`, as the CSP specification spells a hash source).

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The CSP source that allows exactly `script`: `'sha256-<base64 digest>'`.
pub fn csp_hash(script: &str) -> String {
    let digest = Sha256::digest(script.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The pages' whole policy: nothing fetched, styles inline, and `script` the only script.
pub fn policy(script: &str) -> String {
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; script-src {}",
        csp_hash(script)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_source_of_the_specifications_example() {
        // The CSP Level 3 example: the hash source of `alert('Hello, world.');`
        assert_eq!(
            csp_hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
    }
}
