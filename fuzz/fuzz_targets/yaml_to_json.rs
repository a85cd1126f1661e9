//! YAML streams on arbitrary bytes: splitting and conversion never panic, and converted values
//! survive our YAML emitter.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for doc in kstruct::input::read_documents(data, "fuzz") {
        if let Ok(v) = doc.value {
            let text = kstruct::schema::yaml::emit(&v);
            let back = kstruct::schema::yaml::to_json(&text)
                .expect("emitted YAML reads back")
                .value;
            assert_eq!(
                kstruct::schema::go::marshal_json(&back),
                kstruct::schema::go::marshal_json(&v)
            );
            kstruct::json::dispose(back);
            kstruct::json::dispose(v);
        }
    }
});
