//! Secrets: random session and API tokens, their SHA-256 digests, and argon2id password
//! hashes.
//!
//! Passwords are hashed with argon2id, 19 MiB of memory, 2 passes, 1 lane (the OWASP
//! minimum) and a random 16-byte salt, as a PHC string that carries its own parameters.

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// argon2id memory cost in KiB (19 MiB).
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// argon2id passes.
pub const ARGON2_PASSES: u32 = 2;
/// argon2id lanes.
pub const ARGON2_LANES: u32 = 1;

/// Shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password accepted (bytes), so hashing stays bounded.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// Prefix of API tokens, so they are recognisable in scripts and secret scanners.
pub const TOKEN_PREFIX: &str = "volplan_";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 256 random bits as 64 hex digits; `Err` when the system has no randomness.
pub fn random_secret() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no system randomness: {e}"))?;
    Ok(hex(&bytes))
}

/// A new API token: the prefix and 256 random bits.
pub fn new_api_token() -> Result<String, String> {
    Ok(format!("{TOKEN_PREFIX}{}", random_secret()?))
}

/// The SHA-256 of `secret` as 64 hex digits: what the database keeps of a session or
/// token (the secrets are random, so a fast hash is enough).
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

fn hasher() -> Argon2<'static> {
    let params = Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, ARGON2_LANES, None)
        .expect("the argon2 parameters are within the algorithm's bounds");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Why a password is not accepted, as a sentence; `None` when it is.
pub fn password_problem(password: &str) -> Option<String> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        Some(format!(
            "the password must have at least {MIN_PASSWORD_CHARS} characters"
        ))
    } else if password.len() > MAX_PASSWORD_BYTES {
        Some(format!(
            "the password must have at most {MAX_PASSWORD_BYTES} bytes"
        ))
    } else {
        None
    }
}

/// The argon2id PHC string of `password` with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no system randomness: {e}"))?;
    hasher()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// Whether `password` matches the PHC string `hash` (false for an unreadable hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    password.len() <= MAX_PASSWORD_BYTES
        && hasher().verify_password(password.as_bytes(), hash).is_ok()
}

/// A hash no password matches, verified against for unknown user names so that a
/// wrong name takes as long as a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let secret = random_secret().unwrap_or_else(|_| "decoy password".into());
        hash_password(&secret).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(h, hash_password("correct horse").unwrap(), "salted");
        assert!(!verify_password("correct horse", decoy_hash()));
    }

    #[test]
    fn secrets_are_random_and_digested() {
        let a = random_secret().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, random_secret().unwrap());
        assert!(new_api_token().unwrap().starts_with(TOKEN_PREFIX));
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(password_problem("short").is_some());
        assert!(password_problem("long enough").is_none());
        assert!(password_problem(&"x".repeat(2000)).is_some());
    }
}
