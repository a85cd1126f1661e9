//! The CEL syntax check on arbitrary expressions: never panics, never recurses past its limit,
//! and an error's position is inside the expression.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(expr) = std::str::from_utf8(data)
        && let Err(e) = kstruct::cel::check(expr)
    {
        assert!(e.position.offset <= expr.len());
        assert!(e.position.line >= 1 && e.position.column >= 1);
        let _ = e.to_string();
    }
});
