//! Resolution of arbitrary bytes as a sendMessage body (R1–R8, L2): an error value or a
//! canonical result within the limits, never a panic.
#![no_main]
use chatmark::{resolve_json, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(body) = chatmark::json_from_str_lossy(&String::from_utf8_lossy(data)) else {
        return;
    };
    let limits = Limits::default();
    for check_chat_id in [false, true] {
        match resolve_json(&body, &limits, check_chat_id) {
            Ok(r) => {
                if let Err(rule) = r.formatted.check_canonical() {
                    panic!("{rule}: {body}");
                }
                assert!(!r.formatted.text.is_empty(), "R4");
                let raw = body["text"].as_str().map_or(0, chatmark::utf16_len);
                assert!(raw <= limits.max_text_len, "R1");
            }
            Err(e) => assert!(!e.code.as_str().is_empty() && !e.message.is_empty()),
        }
    }
});
