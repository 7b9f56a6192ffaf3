//! The Bot API response envelope `{ok, result?, errorCode?, description?}`.

use serde::{Deserialize, Serialize};

/// A Bot API answer: `ok` with a `result`, or an `errorCode` with a `description`.
///
/// Reading accepts `error_code` (the spelling of the platform's documentation) as well as
/// `errorCode`; writing always uses `errorCode`.
///
/// # Examples
///
/// ```
/// use chatmark_api::Envelope;
/// let e: Envelope<u8> = serde_json::from_str(r#"{"ok":false,"error_code":400,"description":"bad"}"#).unwrap();
/// assert_eq!(e.error_code, Some(400));
/// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"ok":false,"errorCode":400,"description":"bad"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// Whether the request succeeded.
    pub ok: bool,
    /// The method's result, present when `ok`.
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub result: Option<T>,
    /// The error's code (an HTTP-like status), present when not `ok`.
    #[serde(
        default,
        rename = "errorCode",
        alias = "error_code",
        skip_serializing_if = "Option::is_none"
    )]
    pub error_code: Option<u16>,
    /// A human-readable explanation, present when not `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

fn none<T>() -> Option<T> {
    None
}

/// A failed Bot API call as a value: the envelope's `errorCode` and `description`.
///
/// # Examples
///
/// ```
/// let e = chatmark_api::ApiError { code: 426, description: "limit".into() };
/// assert_eq!(e.to_string(), "error 426: limit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("error {code}: {description}")]
pub struct ApiError {
    /// The envelope's `errorCode`.
    pub code: u16,
    /// The envelope's `description`.
    pub description: String,
}

impl<T> Envelope<T> {
    /// A successful answer carrying `result`.
    ///
    /// # Examples
    ///
    /// ```
    /// let e = chatmark_api::Envelope::success(true);
    /// assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"ok":true,"result":true}"#);
    /// ```
    pub fn success(result: T) -> Self {
        Envelope {
            ok: true,
            result: Some(result),
            error_code: None,
            description: None,
        }
    }

    /// A failed answer with an error code and a description.
    ///
    /// # Examples
    ///
    /// ```
    /// let e = chatmark_api::Envelope::<()>::error(426, "daily limit reached");
    /// assert_eq!(e.error_code, Some(426));
    /// ```
    pub fn error(code: u16, description: impl Into<String>) -> Self {
        Envelope {
            ok: false,
            result: None,
            error_code: Some(code),
            description: Some(description.into()),
        }
    }

    /// A refused `sendMessage` (R7): `errorCode` 400 with the resolution error's message.
    ///
    /// # Examples
    ///
    /// ```
    /// let body = serde_json::json!({"chat_id": 1, "text": ""});
    /// let err = chatmark::resolve_json(&body.to_string(), &Default::default(), true).unwrap_err();
    /// let e = chatmark_api::Envelope::<()>::from_resolve_error(&err);
    /// assert_eq!((e.error_code, e.description.as_deref()), (Some(400), Some(err.message.as_str())));
    /// ```
    pub fn from_resolve_error(err: &chatmark::ResolveError) -> Self {
        Envelope::error(400, err.message.clone())
    }

    /// The envelope as a `Result`: the result when `ok`, else the error (an `ok` envelope
    /// without a result, or a failed one without a code, is an error too).
    ///
    /// # Examples
    ///
    /// ```
    /// let e: chatmark_api::Envelope<u8> = serde_json::from_str(r#"{"ok":false,"errorCode":404,"description":"no"}"#).unwrap();
    /// assert_eq!(e.into_result().unwrap_err().code, 404);
    /// ```
    pub fn into_result(self) -> Result<T, ApiError> {
        match (self.ok, self.result, self.error_code) {
            (true, Some(r), None) => Ok(r),
            (true, None, _) => Err(ApiError {
                code: 0,
                description: "ok envelope without a result".to_owned(),
            }),
            (true, Some(_), Some(code)) => Err(ApiError {
                code,
                description: "ok envelope carrying an errorCode".to_owned(),
            }),
            (false, _, code) => Err(ApiError {
                code: code.unwrap_or(0),
                description: self
                    .description
                    .unwrap_or_else(|| "failed envelope without a description".to_owned()),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_round_trips() {
        let text = r#"{"ok":true,"result":{"a":1}}"#;
        let e: Envelope<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), text);
    }

    #[test]
    fn both_spellings_read_and_errorcode_is_written() {
        for text in [
            r#"{"ok":false,"errorCode":426,"description":"x"}"#,
            r#"{"ok":false,"error_code":426,"description":"x"}"#,
        ] {
            let e: Envelope<()> = serde_json::from_str(text).unwrap();
            assert_eq!(e.error_code, Some(426));
            assert_eq!(
                serde_json::to_string(&e).unwrap(),
                r#"{"ok":false,"errorCode":426,"description":"x"}"#
            );
        }
    }

    #[test]
    fn rejects_missing_ok_and_duplicate_codes() {
        let err = serde_json::from_str::<Envelope<()>>(r#"{"result":null}"#).unwrap_err();
        assert!(err.to_string().contains("missing field `ok`"), "{err}");
        let err =
            serde_json::from_str::<Envelope<()>>(r#"{"ok":false,"errorCode":1,"error_code":2}"#)
                .unwrap_err();
        assert!(err.to_string().contains("duplicate field"), "{err}");
        let err = serde_json::from_str::<Envelope<()>>(r#"{"ok":"yes"}"#).unwrap_err();
        assert!(err.to_string().contains("expected a boolean"), "{err}");
    }

    #[test]
    fn into_result_checks_consistency() {
        assert_eq!(Envelope::success(3).into_result(), Ok(3));
        let e: Envelope<u8> = serde_json::from_str(r#"{"ok":true}"#).unwrap();
        assert!(e.into_result().is_err());
    }
}
