//! Whether a request type is read from a JSON object. serde's derived structs also
//! read an array of their fields in order (`["text"]` as `{"text": "text"}`), which
//! the API's schema does not allow: such a body is refused instead.
//!
//! Hand-written because neither serde's derive nor serde_json has a switch that refuses
//! the array form of a struct (serde-rs/serde#1587 is open).

use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;

/// True when `T` reads itself as a struct or a map, i.e. from a JSON object.
///
/// `T` is asked to deserialise itself from a probe that records the one method it
/// calls and stops there: no input is read and nothing is allocated.
pub fn wants_object<'de, T: Deserialize<'de>>() -> bool {
    let mut object = false;
    // The probe always stops with `Stop`; only what it recorded matters.
    let _ = T::deserialize(Probe(&mut object));
    object
}

/// Whether `body` (JSON) is an array at its top level.
pub fn is_array(body: &[u8]) -> bool {
    body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

struct Probe<'a>(&'a mut bool);

/// The probe's only outcome.
#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("shape probe")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Stop
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = true;
        Err(Stop)
    }

    fn deserialize_map<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        *self.0 = true;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct enum
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Named {
        text: String,
    }

    #[test]
    fn structs_and_maps_want_objects_the_rest_does_not() {
        assert!(wants_object::<Named>());
        assert!(wants_object::<BTreeMap<String, u8>>());
        assert!(wants_object::<crate::engine::Scenario>());
        assert!(!wants_object::<serde_json::Value>());
        assert!(!wants_object::<Vec<Named>>());
        assert!(!wants_object::<String>());
    }

    #[test]
    fn an_array_is_told_by_its_first_byte() {
        assert!(is_array(b" \n[\"x\"]"));
        assert!(!is_array(b"{\"text\": \"[\"}"));
        assert!(!is_array(b""));
    }
}
