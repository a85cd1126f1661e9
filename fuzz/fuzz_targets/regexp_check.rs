//! Go's regexp syntax check on arbitrary patterns: never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(pattern) = std::str::from_utf8(data) {
        let _ = kstruct::schema::regexp::check(pattern);
    }
});
