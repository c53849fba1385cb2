//! Random identifiers: session ids, CSRF tokens, debuggee ids.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn random_u64() -> u64 {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mut h = RandomState::new().build_hasher();
    h.write_u64(n);
    h.write_u128(nanos);
    h.finish()
}

/// 32 upper-case hex characters (debuggee ids, debug session ids).
pub(crate) fn hex32() -> String {
    format!("{:016X}{:016X}", random_u64(), random_u64())
}

/// A 24-character base64 token (CSRF tokens).
pub(crate) fn token() -> String {
    let mut bytes = Vec::with_capacity(18);
    for _ in 0..3 {
        bytes.extend_from_slice(&random_u64().to_le_bytes()[..6]);
    }
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// 32 bytes from the system's random source as 64 hex characters: a secret (the embedded
/// simulator's password and admin token). Without `/dev/urandom`, the hash-based ids above,
/// whose keys the standard library also draws from the system's random source.
pub fn secret() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&random_u64().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let a = hex32();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, hex32());
        assert_eq!(token().len(), 24);
        assert_eq!(secret().len(), 64);
        assert_ne!(secret(), secret());
    }
}
