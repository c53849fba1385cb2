//! jsonl
