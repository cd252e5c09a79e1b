//! Unit tests of the live estate.
