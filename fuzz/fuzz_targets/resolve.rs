//! Resolution of arbitrary bytes as a sendMessage body (R1–R8, N1, L2): an error value or a
//! canonical result within the limits, never a panic; and, wherever `serde_json` can hold the
//! body as a `Value`, the same answer as the naive reading of that value (the oracle).
#![no_main]
use chatmark::{resolve, resolve_json, resolve_text, Limits};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/chatmark/tests/support/json_oracle.rs"]
mod json_oracle;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let oracle = chatmark::json_from_str_lossy::<serde_json::Value>(&text).ok();
    let limits = Limits::default();
    for check_chat_id in [false, true] {
        let got = resolve_json(&text, &limits, check_chat_id);
        match &got {
            Ok(r) => {
                if let Err(rule) = r.formatted.check_canonical() {
                    panic!("{rule}: {text}");
                }
                assert!(!r.formatted.text.is_empty(), "R4");
            }
            Err(e) => assert!(!e.code.as_str().is_empty() && !e.message.is_empty()),
        }
        if let Some(v) = &oracle {
            let body = json_oracle::send_message(v);
            let want = if check_chat_id { resolve(&body, &limits) } else { resolve_text(&body, &limits) };
            assert_eq!(got, want, "streaming reader differs from the Value oracle: {text}");
            let raw = v["text"].as_str().map_or(0, chatmark::utf16_len);
            assert!(got.is_err() || raw <= limits.max_text_len, "R1");
        }
    }
});
