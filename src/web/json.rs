//! Compact JSON for API responses: byte for byte what `serde_json::to_vec` writes, into
//! one buffer sized up front, with strings checked for escapes sixteen bytes at a time.
//!
//! serde_json looks at every byte of every string (keys included) through a table; an
//! evaluation is mostly text (labels, sources), so that scan was half of its
//! serialisation. Here the names of fields and variants (Rust identifiers) are copied
//! as they are, and any other string is first tested as a whole for a byte that needs
//! an escape, with SIMD compares, and copied in one piece when none does (nearly
//! always).
//! Numbers, `null` and the punctuation go through serde_json's own [`CompactFormatter`],
//! so every number is spelled exactly as serde_json spells it.

use super::error::ApiError;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::ser::{self, Error as _, Serialize};
use serde_json::Error;
use serde_json::ser::{CompactFormatter, Formatter};
use std::fmt;

/// A JSON answer as `axum::Json` gives it (`application/json`, the same bytes), written
/// by [`to_vec`] into a buffer of `capacity` bytes to start with.
pub struct JsonResponse<T> {
    pub value: T,
    pub capacity: usize,
}

impl<T: Serialize> IntoResponse for JsonResponse<T> {
    fn into_response(self) -> Response {
        match to_vec(&self.value, self.capacity) {
            Ok(body) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                body,
            )
                .into_response(),
            Err(e) => ApiError::internal(format!("serialising the answer: {e}")).into_response(),
        }
    }
}

/// Serialises `value` as compact JSON into a buffer of `capacity` bytes to start with.
pub fn to_vec<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Result<Vec<u8>, Error> {
    let mut out = Writer {
        buf: Vec::with_capacity(capacity),
    };
    value.serialize(&mut out)?;
    Ok(out.buf)
}

/// The buffer being written.
struct Writer {
    buf: Vec<u8>,
}

/// Whether any byte of `s` needs an escape (below 0x20, `"` or `\\`), sixteen bytes at
/// a time instead of serde_json's table lookup per byte: the test of a block has no
/// branch, so the compiler turns it into SIMD compares (SSE2 on x86-64). A string
/// shorter than a block is padded to one; a longer one ends with a block that overlaps
/// the one before.
fn needs_escape(s: &[u8]) -> bool {
    #[inline(always)]
    fn block(b: &[u8; 16]) -> bool {
        b.iter().fold(false, |hit, &c| {
            hit | (c < 0x20) | (c == b'"') | (c == b'\\')
        })
    }
    match s.last_chunk::<16>() {
        Some(last) => {
            s.chunks_exact(16)
                .any(|c| block(c.try_into().expect("16 bytes")))
                || block(last)
        }
        None => {
            let mut padded = [b' '; 16];
            padded[..s.len()].copy_from_slice(s);
            block(&padded)
        }
    }
}

/// Appends `s` escaped as serde_json escapes it (without the quotes).
#[inline]
fn escape_into(buf: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !needs_escape(bytes) {
        buf.extend_from_slice(bytes);
        return;
    }
    let mut start = 0;
    for (k, &b) in bytes.iter().enumerate() {
        if let Some(e) = escape(b) {
            buf.extend_from_slice(&bytes[start..k]);
            push_escape(buf, b, e);
            start = k + 1;
        }
    }
    buf.extend_from_slice(&bytes[start..]);
}

/// The short escape letter of byte `b` (`u` for `\u00XX`), if it needs one.
fn escape(b: u8) -> Option<u8> {
    match b {
        b'"' => Some(b'"'),
        b'\\' => Some(b'\\'),
        0x08 => Some(b'b'),
        0x09 => Some(b't'),
        0x0A => Some(b'n'),
        0x0C => Some(b'f'),
        0x0D => Some(b'r'),
        0x00..=0x1F => Some(b'u'),
        _ => None,
    }
}

fn push_escape(buf: &mut Vec<u8>, b: u8, e: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if e == b'u' {
        buf.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 0xF)],
        ]);
    } else {
        buf.extend_from_slice(&[b'\\', e]);
    }
}

impl Writer {
    fn string(&mut self, s: &str) {
        self.buf.push(b'"');
        escape_into(&mut self.buf, s);
        self.buf.push(b'"');
    }

    /// `{"variant":`, the start of an externally tagged enum variant.
    fn tag(&mut self, variant: &'static str) {
        self.name(Some(b'{'), variant, Some(b':'));
    }

    /// Appends `lead` (if any), `"name"` and `trail` (if any) with one capacity check.
    /// Names (of fields and enum variants) are Rust identifiers or serde renames of
    /// them and need no escape, so they are copied as they are; debug builds check it.
    #[inline]
    fn name(&mut self, lead: Option<u8>, name: &'static str, trail: Option<u8>) {
        debug_assert!(!needs_escape(name.as_bytes()), "name {name:?}");
        let name = name.as_bytes();
        let lead_n = usize::from(lead.is_some());
        let n = lead_n + name.len() + 2 + usize::from(trail.is_some());
        let buf = &mut self.buf;
        buf.reserve(n);
        // SAFETY: `reserve` made room for the `n` bytes written past the end, and
        // `set_len` exposes exactly those. Plain stores: this runs for every field
        // written. (Without a lead, the first store is overwritten by the quote.)
        unsafe {
            let at = buf.as_mut_ptr().add(buf.len());
            at.write(lead.unwrap_or(b'"'));
            at.add(lead_n).write(b'"');
            std::ptr::copy_nonoverlapping(name.as_ptr(), at.add(lead_n + 1), name.len());
            at.add(lead_n + 1 + name.len()).write(b'"');
            if let Some(t) = trail {
                at.add(n - 1).write(t);
            }
            buf.set_len(buf.len() + n);
        }
    }

    fn number(
        &mut self,
        f: impl FnOnce(&mut CompactFormatter, &mut Vec<u8>) -> std::io::Result<()>,
    ) {
        f(&mut CompactFormatter, &mut self.buf).expect("writing to a Vec cannot fail");
    }
}

/// `v` as an integer when it is a whole number of magnitude below 1e15 (and not -0.0,
/// which serde_json writes as `-0.0`).
fn small_integer(v: f64) -> Option<i64> {
    (v.abs() < 1e15 && v.fract() == 0.0 && !(v == 0.0 && v.is_sign_negative())).then_some(v as i64)
}

/// Opens an array or object with `bracket`.
fn open(w: &mut Writer, bracket: u8) -> Compound<'_> {
    w.buf.push(bracket);
    Compound { w, first: true }
}

/// Appends `Display` output as it is; `collect_str` escapes it afterwards, in
/// one pass over the whole text instead of one per piece.
struct Raw<'a>(&'a mut Vec<u8>);

impl fmt::Write for Raw<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// An array or object being written: whether the next element is its first.
pub struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
}

impl Compound<'_> {
    /// The comma before the next element, unless it is the first.
    fn separator(&mut self) -> Option<u8> {
        (!std::mem::take(&mut self.first)).then_some(b',')
    }

    fn comma(&mut self) {
        if let Some(c) = self.separator() {
            self.w.buf.push(c);
        }
    }

    /// A struct field's name and its colon, after a comma unless it is the first.
    fn key(&mut self, key: &'static str) {
        let lead = self.separator();
        self.w.name(lead, key, Some(b':'));
    }
}

macro_rules! numbers {
    ($($method:ident: $t:ty => $write:ident),* $(,)?) => {
        $(fn $method(self, v: $t) -> Result<(), Error> {
            self.number(|f, b| f.$write(b, v));
            Ok(())
        })*
    };
}

/// Floats as serde_json writes them: `null` when not finite.
macro_rules! floats {
    ($($method:ident: $t:ty => $write:ident),* $(,)?) => {
        $(fn $method(self, v: $t) -> Result<(), Error> {
            if v.is_finite() {
                self.number(|f, b| f.$write(b, v));
            } else {
                self.buf.extend_from_slice(b"null");
            }
            Ok(())
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    numbers! {
        serialize_i8: i8 => write_i8,
        serialize_i16: i16 => write_i16,
        serialize_i32: i32 => write_i32,
        serialize_i64: i64 => write_i64,
        serialize_i128: i128 => write_i128,
        serialize_u8: u8 => write_u8,
        serialize_u16: u16 => write_u16,
        serialize_u32: u32 => write_u32,
        serialize_u64: u64 => write_u64,
        serialize_u128: u128 => write_u128,
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.buf
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    floats! {
        serialize_f32: f32 => write_f32,
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if let Some(n) = small_integer(v) {
            // serde_json's shortest form of a whole number below 1e15: its digits and
            // ".0" (most figures of an evaluation: ceilings, quotas, counts).
            self.number(|f, b| f.write_i64(b, n));
            self.buf.extend_from_slice(b".0");
        } else if v.is_finite() {
            self.number(|f, b| f.write_f64(b, v));
        } else {
            self.buf.extend_from_slice(b"null");
        }
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut seq = ser::Serializer::serialize_seq(self, Some(v.len()))?;
        for b in v {
            ser::SerializeSeq::serialize_element(&mut seq, b)?;
        }
        ser::SerializeSeq::end(seq)
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.buf.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.name(None, variant, None);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.tag(variant);
        v.serialize(&mut *self)?;
        self.buf.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(open(self, b'['))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.tag(variant);
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(open(self, b'{'))
    }

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.tag(variant);
        self.serialize_map(Some(len))
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, v: &T) -> Result<(), Error> {
        self.buf.push(b'"');
        let start = self.buf.len();
        fmt::write(&mut Raw(&mut self.buf), format_args!("{v}"))
            .map_err(|_| Error::custom("a Display implementation failed"))?;
        if needs_escape(&self.buf[start..]) {
            let raw = self.buf.split_off(start);
            let text = std::str::from_utf8(&raw).expect("Display writes whole str pieces");
            escape_into(&mut self.buf, text);
        }
        self.buf.push(b'"');
        Ok(())
    }
}

/// The array-like compounds: elements after commas, then the closing bytes.
macro_rules! sequences {
    ($($tr:ident::$method:ident closes $close:literal;)*) => {
        $(impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.comma();
                v.serialize(&mut *self.w)
            }

            fn end(self) -> Result<(), Error> {
                self.w.buf.extend_from_slice($close);
                Ok(())
            }
        })*
    };
}

sequences! {
    SerializeSeq::serialize_element closes b"]";
    SerializeTuple::serialize_element closes b"]";
    SerializeTupleStruct::serialize_field closes b"]";
    SerializeTupleVariant::serialize_field closes b"]}";
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(MapKey(&mut *self.w))?;
        self.w.buf.push(b':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Error> {
        self.w.buf.push(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.key(key);
        v.serialize(&mut *self.w)
    }

    fn end(self) -> Result<(), Error> {
        ser::SerializeMap::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }

    fn end(self) -> Result<(), Error> {
        self.w.buf.extend_from_slice(b"}}");
        Ok(())
    }
}

/// A map key: a string, or a number or boolean written as one (as serde_json does).
struct MapKey<'a>(&'a mut Writer);

impl MapKey<'_> {
    fn quoted(self, f: impl FnOnce(&mut Writer) -> Result<(), Error>) -> Result<(), Error> {
        self.0.buf.push(b'"');
        f(self.0)?;
        self.0.buf.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error::custom("key must be a string")
}

/// Serializer methods for what cannot be a map key: each refuses.
macro_rules! not_keys {
    ($(fn $method:ident$(<$g:ident>)?($($t:ty),*) -> $ret:ty;)*) => {
        $(fn $method$(<$g: Serialize + ?Sized>)?(self $(, _: $t)*) -> Result<$ret, Error> {
            Err(key_must_be_a_string())
        })*
    };
}

macro_rules! quoted_keys {
    ($($method:ident: $t:ty),* $(,)?) => {
        $(fn $method(self, v: $t) -> Result<(), Error> {
            self.quoted(|w| ser::Serializer::$method(w, v))
        })*
    };
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    quoted_keys! {
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128,
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::custom("float key must be finite"));
        }
        self.quoted(|w| ser::Serializer::serialize_f32(w, v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::custom("float key must be finite"));
        }
        self.quoted(|w| ser::Serializer::serialize_f64(w, v))
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        ser::Serializer::serialize_char(self.0, v)
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.string(v);
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.name(None, variant, None);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        v.serialize(self)
    }

    not_keys! {
        fn serialize_bytes(&[u8]) -> ();
        fn serialize_none() -> ();
        fn serialize_some<T>(&T) -> ();
        fn serialize_unit() -> ();
        fn serialize_unit_struct(&'static str) -> ();
        fn serialize_newtype_variant<T>(&'static str, u32, &'static str, &T) -> ();
        fn serialize_seq(Option<usize>) -> Self::SerializeSeq;
        fn serialize_tuple(usize) -> Self::SerializeTuple;
        fn serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        fn serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        fn serialize_map(Option<usize>) -> Self::SerializeMap;
        fn serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        fn serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, v: &T) -> Result<(), Error> {
        ser::Serializer::collect_str(self.0, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn same<T: Serialize>(v: &T) {
        let want = serde_json::to_vec(v).unwrap();
        let got = to_vec(v, 16).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        New(f64),
        Tuple(u8, i64),
        Named { a: Option<u32>, b: Vec<f32> },
    }

    #[derive(Serialize)]
    struct Everything {
        text: String,
        ch: char,
        flags: (bool, bool),
        nothing: Option<f64>,
        floats: Vec<f64>,
        ints: [i128; 3],
        bytes: &'static [u8],
        shapes: Vec<Shape>,
        by_name: BTreeMap<String, u16>,
        by_number: BTreeMap<i32, &'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        #[serde(serialize_with = "display")]
        shown: f64,
    }

    fn display<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{v:.3} \"ms\"\n"))
    }

    #[test]
    fn every_escape_matches_serde_json() {
        let all: String = (0u8..0x80).map(char::from).collect();
        for s in [
            all.as_str(),
            "",
            "plain ASCII longer than one word",
            "µs and 4 × 20 TiB, “quoted”",
            "\"\\\"\\",
            "tab\there\u{1f}end\u{7f}",
            "12345678\n",
            "1234567\"",
        ] {
            same(&s);
            for cut in 0..s.len() {
                if s.is_char_boundary(cut) {
                    same(&&s[cut..]);
                }
            }
        }
    }

    #[test]
    fn whole_numbers_match_serde_json() {
        let mut v = 1.0_f64;
        while v < 1e17 {
            for x in [v, v - 1.0, v + 1.0, -v, 3.0 * v, 7.0 * v - 1.0] {
                same(&x);
            }
            v *= 10.0;
        }
        for x in [
            0.0,
            -0.0,
            0.5,
            -1.5,
            999_999_999_999_999.0,
            1e15,
            4.5e15,
            1e16,
        ] {
            same(&x);
        }
    }

    proptest::proptest! {
        #[test]
        fn any_float_matches_serde_json(x in proptest::num::f64::ANY, n in -1_000_000_000_000_000i64..1_000_000_000_000_000) {
            same(&x);
            same(&(n as f64));
        }

        #[test]
        fn any_text_matches_serde_json(s in "\\PC*", b in proptest::collection::vec(0u8..0x80, 0..40)) {
            same(&s);
            same(&String::from_utf8(b).expect("ASCII"));
        }
    }

    #[test]
    fn evaluations_match_serde_json() {
        let example: crate::engine::Scenario =
            serde_json::from_str(include_str!("../../benches/contract_example.json")).unwrap();
        let mut missed = example.clone();
        missed.workload.target_iops = Some(1e6);
        missed.workload.target_latency_ms = Some(0.5);
        for s in [example, missed] {
            same(&crate::engine::evaluate(&s).unwrap());
        }
    }

    #[test]
    fn every_shape_matches_serde_json() {
        same(&Everything {
            text: "a \"label\" (4 x 20 TiB)".into(),
            ch: '"',
            flags: (true, false),
            nothing: None,
            floats: vec![
                0.0,
                -0.0,
                1.0,
                1e-9,
                8965.022740636286,
                1e300,
                f64::NAN,
                f64::INFINITY,
            ],
            ints: [i128::MIN, 0, i128::MAX],
            bytes: b"\x00\xff",
            shapes: vec![
                Shape::Unit,
                Shape::New(2.5),
                Shape::Tuple(7, -3),
                Shape::Named {
                    a: Some(1),
                    b: vec![0.1, f32::NEG_INFINITY],
                },
            ],
            by_name: [("k\n".to_owned(), 1), ("z".to_owned(), 2)].into(),
            by_number: [(-1, "minus"), (10, "ten")].into(),
            skipped: None,
            shown: 1.23456,
        });
    }
}
