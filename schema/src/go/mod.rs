//! Go's text formats, where the API server's messages depend on them.
//!
//! The reference is written in Go, and several of its messages embed values the way Go's
//! standard library prints them: strings quoted by `strconv.Quote` (`%q`), floats printed by
//! `%v` or by `encoding/json`. These functions reproduce those formats exactly, so that our
//! messages and outputs equal the reference's byte for byte.

mod decoder;
mod float;
mod isprint_table;
mod json;
/// Go's `mail.ParseAddress`, and kube-openapi's `email` format on it.
pub mod mail;
mod print;
mod quote;
mod unmarshal;

pub use decoder::FieldDecoder;
pub use float::{format_float_g, format_float_json, format_float32_g};
pub use json::{
    JsonOut, marshal_json, marshal_json_with, write_json, write_number, write_string, write_string_content,
};
pub use print::{sprint_sharp_v, sprint_v, type_name};
pub use quote::{is_print, quote};
pub use unmarshal::{UnmarshalError, json_kind};
