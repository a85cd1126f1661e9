//! The request-body JSON decoder on arbitrary bytes: never panics; what it accepts prints and
//! reads back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = kstruct::json::decode(data) {
        let text = kstruct::schema::go::marshal_json(&d.value);
        let again = kstruct::json::decode(text.as_bytes()).expect("our own output decodes");
        assert!(again.duplicates.is_empty());
        kstruct::json::dispose(again.value);
        kstruct::json::dispose(d.value);
    }
});
