//! YAML streams on arbitrary bytes: splitting and conversion never panic, and converted values
//! survive our YAML emitter (negative zero excepted: it reads back as 0, as in Kubernetes).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for doc in kstruct::input::read_documents(data, "fuzz") {
        if let Ok(v) = doc.value {
            let text = kstruct::schema::yaml::emit(&v);
            let back = kstruct::schema::yaml::to_json(&text)
                .expect("emitted YAML reads back")
                .value;
            let unsigned_zero = |text: String| text.replace("-0,", "0,").replace("-0]", "0]").replace("-0}", "0}");
            let (back_text, v_text) = (kstruct::schema::go::marshal_json(&back), kstruct::schema::go::marshal_json(&v));
            if v_text == "-0" {
                assert_eq!(back_text, "0");
            } else {
                assert_eq!(unsigned_zero(back_text), unsigned_zero(v_text));
            }
            kstruct::json::dispose(back);
            kstruct::json::dispose(v);
        }
    }
});
