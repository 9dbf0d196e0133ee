//! End-to-end: the real Claude Code against a local stand-in of the Messages API.
