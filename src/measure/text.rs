//! Bytes to text: UTF-8 with or without BOM, and UTF-16 (what PowerShell's `>` writes, a
//! common way DiskSpd XML reaches us).

use super::{ImportError, MAX_INPUT_BYTES};

/// Decodes a result file; the error says why the bytes are not text.
pub(super) fn decode(bytes: &[u8]) -> Result<String, ImportError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ImportError::Unrecognized {
            problem: format!(
                "the file has {} MiB; results are at most {} MiB",
                bytes.len() / (1024 * 1024),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        });
    }
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return utf8(rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(rest, u16::from_be_bytes);
    }
    // UTF-16 without a BOM: ASCII text with every other byte zero.
    if bytes.len() >= 4 && bytes.len().is_multiple_of(2) {
        if bytes[0] != 0 && bytes[1] == 0 && bytes[3] == 0 {
            return utf16(bytes, u16::from_le_bytes);
        }
        if bytes[0] == 0 && bytes[1] != 0 && bytes[2] == 0 {
            return utf16(bytes, u16::from_be_bytes);
        }
    }
    utf8(bytes)
}

fn utf8(bytes: &[u8]) -> Result<String, ImportError> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err(ImportError::Unrecognized {
            problem: format!(
                "the file is not text (byte {} is not UTF-8); import the result file itself, not an archive or image",
                e.valid_up_to() + 1
            ),
        }),
    }
}

fn utf16(bytes: &[u8], word: fn([u8; 2]) -> u16) -> Result<String, ImportError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(ImportError::Unrecognized {
            problem: "the file starts like UTF-16 text but has an odd number of bytes".to_owned(),
        });
    }
    let units = bytes.chunks_exact(2).map(|c| word([c[0], c[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| ImportError::Unrecognized {
            problem: "the file starts like UTF-16 text but contains an invalid character"
                .to_owned(),
        })
}

/// Reads a number that a tool may write as a JSON number or a string, e.g. "4096" or
/// "1.5"; `NaN`, `inf` and `1e400` read as what they are, for the physical ranges to
/// refuse ([`super::plausible`]) rather than to pass as a figure left out.
pub(super) fn number(s: &str) -> Option<f64> {
    s.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_le_with_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "<Results/>".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode(&bytes).unwrap(), "<Results/>");
    }

    #[test]
    fn utf16_le_without_bom() {
        let bytes: Vec<u8> = "<Results/>"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(decode(&bytes).unwrap(), "<Results/>");
    }

    #[test]
    fn utf8_bom_is_dropped() {
        assert_eq!(decode(b"\xEF\xBB\xBF{}").unwrap(), "{}");
    }

    #[test]
    fn binary_is_refused() {
        let e = decode(&[0x50, 0x4B, 0x03, 0x04, 0xFF, 0xFE, 0x00]).unwrap_err();
        assert!(matches!(e, ImportError::Unrecognized { .. }));
    }

    #[test]
    fn numbers() {
        assert_eq!(number(" 4096 "), Some(4096.0));
        assert!(number("NaN").unwrap().is_nan());
        assert_eq!(number("inf"), Some(f64::INFINITY));
        assert_eq!(number("1e400"), Some(f64::INFINITY));
        assert_eq!(number("x"), None);
    }
}
