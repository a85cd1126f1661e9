//! A schema and an object from arbitrary bytes (split at the first NUL): conversion,
//! structural validation, serve-time default pruning, pruning, null pruning and defaulting
//! never panic, and pruning twice changes nothing more.
#![no_main]

use kstruct::schema::field::Path;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (schema, object) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"{}"[..]),
    };
    let Ok(schema) = kstruct::json::decode(schema) else {
        return;
    };
    let Ok(Some(mut s)) = kstruct::schema::convert::from_value(&schema.value) else {
        return;
    };
    let _ = kstruct::schema::validation::validate_structural(&Path::nil(), &s);
    let _ = kstruct::interpreter::prune_defaults(&mut s);
    let Ok(object) = kstruct::json::decode(object) else {
        return;
    };
    for root in [true, false] {
        let mut v = object.value.clone();
        kstruct::interpreter::prune(&mut v, Some(&s), root, true);
        let once = v.clone();
        assert!(kstruct::interpreter::prune(&mut v, Some(&s), root, true).is_empty());
        assert_eq!(v, once);
        kstruct::interpreter::prune_nulls(&mut v, Some(&s));
        kstruct::interpreter::default(&mut v, Some(&s));
    }
});
