//! Integration tests: the real binary on real temp repositories.
#![allow(clippy::unwrap_used, clippy::expect_used)]
