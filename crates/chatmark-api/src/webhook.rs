//! `testWebhook`: the outcome codes with their default hints, the classification of a probe's
//! observation, and a result type whose constructor and reader enforce the relations between
//! `ok`, `status_code` and `outcome`.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// What probing a webhook came to, serialised as its code (`webhook.ok`, `webhook.http.403`, …).
///
/// # Examples
///
/// ```
/// use chatmark_api::Outcome;
/// assert_eq!(serde_json::to_string(&Outcome::Http5xx).unwrap(), r#""webhook.http.5xx""#);
/// assert_eq!("webhook.err.tls".parse::<Outcome>(), Ok(Outcome::ErrTls));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A 2xx answer.
    #[serde(rename = "webhook.ok")]
    Ok,
    /// A 403 answer.
    #[serde(rename = "webhook.http.403")]
    Http403,
    /// A 404 answer.
    #[serde(rename = "webhook.http.404")]
    Http404,
    /// A 5xx answer.
    #[serde(rename = "webhook.http.5xx")]
    Http5xx,
    /// Any other HTTP answer, 3xx included (redirects are not followed).
    #[serde(rename = "webhook.http.other")]
    HttpOther,
    /// The TLS handshake failed (or TLS is not available to the prober).
    #[serde(rename = "webhook.err.tls")]
    ErrTls,
    /// The host name did not resolve.
    #[serde(rename = "webhook.err.dns")]
    ErrDns,
    /// No answer in time.
    #[serde(rename = "webhook.err.timeout")]
    ErrTimeout,
    /// The connection was refused, reset or unreachable.
    #[serde(rename = "webhook.err.conn")]
    ErrConn,
    /// A proxy on the way failed.
    #[serde(rename = "webhook.err.proxy")]
    ErrProxy,
    /// The target is not allowed (see [`crate::blocked`]).
    #[serde(rename = "webhook.err.blocked")]
    ErrBlocked,
    /// Any other failure (a malformed answer, for one).
    #[serde(rename = "webhook.err.other")]
    ErrOther,
}

impl Outcome {
    /// Every outcome, in the order of the codes' table.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::Outcome::ALL.len(), 12);
    /// ```
    pub const ALL: [Outcome; 12] = [
        Outcome::Ok,
        Outcome::Http403,
        Outcome::Http404,
        Outcome::Http5xx,
        Outcome::HttpOther,
        Outcome::ErrTls,
        Outcome::ErrDns,
        Outcome::ErrTimeout,
        Outcome::ErrConn,
        Outcome::ErrProxy,
        Outcome::ErrBlocked,
        Outcome::ErrOther,
    ];

    /// The wire code.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::Outcome::ErrTimeout.as_str(), "webhook.err.timeout");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "webhook.ok",
            Outcome::Http403 => "webhook.http.403",
            Outcome::Http404 => "webhook.http.404",
            Outcome::Http5xx => "webhook.http.5xx",
            Outcome::HttpOther => "webhook.http.other",
            Outcome::ErrTls => "webhook.err.tls",
            Outcome::ErrDns => "webhook.err.dns",
            Outcome::ErrTimeout => "webhook.err.timeout",
            Outcome::ErrConn => "webhook.err.conn",
            Outcome::ErrProxy => "webhook.err.proxy",
            Outcome::ErrBlocked => "webhook.err.blocked",
            Outcome::ErrOther => "webhook.err.other",
        }
    }

    /// Whether the outcome is an HTTP answer (`webhook.ok` or `webhook.http.*`), which
    /// carries a `status_code`, rather than a failure (`webhook.err.*`), which does not.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::Outcome;
    /// assert!(Outcome::Http404.is_http() && !Outcome::ErrDns.is_http());
    /// ```
    pub const fn is_http(self) -> bool {
        matches!(
            self,
            Outcome::Ok
                | Outcome::Http403
                | Outcome::Http404
                | Outcome::Http5xx
                | Outcome::HttpOther
        )
    }

    /// A short advice for the bot's owner, used when no other hint is given.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark_api::Outcome::Http404.default_hint().contains("path"));
    /// ```
    pub const fn default_hint(self) -> &'static str {
        match self {
            Outcome::Ok => "The webhook answered with a success status.",
            Outcome::Http403 => {
                "The webhook refused the request (403): check its authentication or firewall rules."
            }
            Outcome::Http404 => {
                "The webhook answered 404: check the URL's path and that the route is deployed."
            }
            Outcome::Http5xx => {
                "The webhook failed with a server error (5xx): check the server's logs."
            }
            Outcome::HttpOther => {
                "The webhook answered with an unexpected status; redirects (3xx) are not followed, register the final URL."
            }
            Outcome::ErrTls => {
                "The TLS handshake failed: check the certificate chain, its host name and expiry."
            }
            Outcome::ErrDns => "The host name did not resolve: check the URL's host and its DNS records.",
            Outcome::ErrTimeout => {
                "The webhook did not answer in time: make it answer quickly and do the work afterwards."
            }
            Outcome::ErrConn => {
                "The connection failed: check that the server is running and its port is open."
            }
            Outcome::ErrProxy => "A proxy between us and the webhook failed: try again later.",
            Outcome::ErrBlocked => {
                "The URL is not allowed: use a public http(s) address without credentials, not a private or local one."
            }
            Outcome::ErrOther => "The probe failed: check that the URL serves HTTP.",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of reading an unknown outcome code.
///
/// # Examples
///
/// ```
/// let e = "webhook.maybe".parse::<chatmark_api::Outcome>().unwrap_err();
/// assert_eq!(e.to_string(), r#"unknown webhook outcome "webhook.maybe""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown webhook outcome {0:?}")]
pub struct UnknownOutcome(pub String);

impl FromStr for Outcome {
    type Err = UnknownOutcome;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.as_str() == s)
            .ok_or_else(|| UnknownOutcome(s.to_owned()))
    }
}

/// The kind of a probe that got no HTTP answer.
///
/// # Examples
///
/// ```
/// use chatmark_api::{Failure, Observation, Outcome};
/// assert_eq!(Observation::Failed(Failure::Dns).outcome(), Outcome::ErrDns);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// TLS handshake or certificate failure (or TLS unsupported by the prober).
    Tls,
    /// Name resolution failed.
    Dns,
    /// The deadline passed.
    Timeout,
    /// Refused, reset, unreachable.
    Connection,
    /// A proxy failed.
    Proxy,
    /// The target was refused by the blocked-target guard.
    Blocked,
    /// Anything else, such as a malformed status line.
    Other,
}

/// What a probe observed: an HTTP status, or a failure before any status.
///
/// # Examples
///
/// ```
/// use chatmark_api::{Observation, Outcome};
/// assert_eq!(Observation::Status(302).outcome(), Outcome::HttpOther);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observation {
    /// The status code of the answer's status line.
    Status(u16),
    /// No status was read.
    Failed(Failure),
}

impl Observation {
    /// Classifies the observation: 2xx is `webhook.ok`; 403, 404 and 5xx have their own
    /// codes; any other status in 100–599 (3xx included) is `webhook.http.other`; a status
    /// outside 100–599 is not HTTP and is `webhook.err.other`.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{Observation, Outcome};
    /// assert_eq!(Observation::Status(204).outcome(), Outcome::Ok);
    /// assert_eq!(Observation::Status(503).outcome(), Outcome::Http5xx);
    /// assert_eq!(Observation::Status(42).outcome(), Outcome::ErrOther);
    /// ```
    pub const fn outcome(self) -> Outcome {
        match self {
            Observation::Status(200..=299) => Outcome::Ok,
            Observation::Status(403) => Outcome::Http403,
            Observation::Status(404) => Outcome::Http404,
            Observation::Status(500..=599) => Outcome::Http5xx,
            Observation::Status(100..=499) => Outcome::HttpOther,
            Observation::Status(_) => Outcome::ErrOther,
            Observation::Failed(f) => match f {
                Failure::Tls => Outcome::ErrTls,
                Failure::Dns => Outcome::ErrDns,
                Failure::Timeout => Outcome::ErrTimeout,
                Failure::Connection => Outcome::ErrConn,
                Failure::Proxy => Outcome::ErrProxy,
                Failure::Blocked => Outcome::ErrBlocked,
                Failure::Other => Outcome::ErrOther,
            },
        }
    }
}

/// The result of `testWebhook`: `{ok, url, status_code?, outcome, latency_ms, hint}`.
///
/// Built with [`TestWebhookResult::new`], and checked when read, so that `ok` holds exactly
/// when the outcome is `webhook.ok`, `status_code` is present exactly for `webhook.ok` and
/// `webhook.http.*` (and classifies to the outcome), and absent for `webhook.err.*`.
///
/// # Examples
///
/// ```
/// use chatmark_api::{Observation, Outcome, TestWebhookResult};
/// let r = TestWebhookResult::new("http://example.com/hook", Observation::Status(404), 12);
/// assert_eq!((r.ok, r.outcome, r.status_code), (false, Outcome::Http404, Some(404)));
/// let bad = r#"{"ok":true,"url":"u","outcome":"webhook.err.dns","latency_ms":1,"hint":"h"}"#;
/// assert!(serde_json::from_str::<TestWebhookResult>(bad).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawTestWebhookResult")]
pub struct TestWebhookResult {
    /// Whether the webhook answered with a 2xx status.
    pub ok: bool,
    /// The URL probed.
    pub url: String,
    /// The answer's status; absent when there was no answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_code: Option<u16>,
    /// The classified outcome.
    pub outcome: Outcome,
    /// How long the probe took, in milliseconds.
    pub latency_ms: u64,
    /// Advice for the bot's owner.
    pub hint: String,
}

#[derive(Deserialize)]
struct RawTestWebhookResult {
    ok: bool,
    url: String,
    #[serde(default)]
    status_code: Option<u16>,
    outcome: Outcome,
    latency_ms: u64,
    hint: String,
}

impl TryFrom<RawTestWebhookResult> for TestWebhookResult {
    type Error = String;

    fn try_from(r: RawTestWebhookResult) -> Result<Self, String> {
        if r.ok != (r.outcome == Outcome::Ok) {
            return Err(format!(
                "ok is {} but outcome is {}: ok must be true exactly for webhook.ok",
                r.ok, r.outcome
            ));
        }
        match (r.outcome.is_http(), r.status_code) {
            (false, Some(code)) => {
                return Err(format!(
                    "status_code {code} given with {}: failures carry no status",
                    r.outcome
                ))
            }
            (true, None) => return Err(format!("{} needs a status_code", r.outcome)),
            (true, Some(code)) if Observation::Status(code).outcome() != r.outcome => {
                return Err(format!(
                    "status_code {code} does not classify as {}",
                    r.outcome
                ))
            }
            _ => {}
        }
        Ok(TestWebhookResult {
            ok: r.ok,
            url: r.url,
            status_code: r.status_code,
            outcome: r.outcome,
            latency_ms: r.latency_ms,
            hint: r.hint,
        })
    }
}

impl TestWebhookResult {
    /// Builds the result of probing `url` from what was observed, with the default hint.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{Failure, Observation, TestWebhookResult};
    /// let r = TestWebhookResult::new("http://x/", Observation::Failed(Failure::Timeout), 2000);
    /// assert_eq!((r.ok, r.status_code, r.outcome.as_str()), (false, None, "webhook.err.timeout"));
    /// ```
    pub fn new(url: impl Into<String>, observed: Observation, latency_ms: u64) -> Self {
        let outcome = observed.outcome();
        let status_code = match observed {
            Observation::Status(code) if outcome.is_http() => Some(code),
            _ => None,
        };
        TestWebhookResult {
            ok: outcome == Outcome::Ok,
            url: url.into(),
            status_code,
            outcome,
            latency_ms,
            hint: outcome.default_hint().to_owned(),
        }
    }

    /// The same result with a more specific hint.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{Failure, Observation, TestWebhookResult};
    /// let r = TestWebhookResult::new("https://x/", Observation::Failed(Failure::Tls), 0)
    ///     .with_hint("https is not supported by this prober");
    /// assert_eq!(r.hint, "https is not supported by this prober");
    /// ```
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = hint.into();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for o in Outcome::ALL {
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(json, format!("\"{}\"", o.as_str()));
            assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), o);
            assert_eq!(o.as_str().parse::<Outcome>(), Ok(o));
            assert!(seen.insert(o.as_str()));
            assert!(!o.default_hint().is_empty());
            assert_eq!(o.is_http(), !o.as_str().starts_with("webhook.err."));
        }
        assert!(serde_json::from_str::<Outcome>(r#""webhook.http.500""#).is_err());
    }

    #[test]
    fn classification_table() {
        let cases = [
            (200, Outcome::Ok),
            (201, Outcome::Ok),
            (299, Outcome::Ok),
            (100, Outcome::HttpOther),
            (301, Outcome::HttpOther),
            (302, Outcome::HttpOther),
            (400, Outcome::HttpOther),
            (401, Outcome::HttpOther),
            (403, Outcome::Http403),
            (404, Outcome::Http404),
            (429, Outcome::HttpOther),
            (500, Outcome::Http5xx),
            (599, Outcome::Http5xx),
            (600, Outcome::ErrOther),
            (0, Outcome::ErrOther),
        ];
        for (code, want) in cases {
            assert_eq!(Observation::Status(code).outcome(), want, "{code}");
        }
    }

    #[test]
    fn constructor_keeps_the_relations() {
        for code in [0, 99, 200, 302, 403, 404, 418, 500, 700] {
            let r = TestWebhookResult::new("http://h/", Observation::Status(code), 1);
            assert_eq!(r.ok, r.outcome == Outcome::Ok);
            assert_eq!(r.status_code.is_some(), r.outcome.is_http());
            let back: TestWebhookResult =
                serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
            assert_eq!(back, r);
        }
        for f in [
            Failure::Tls,
            Failure::Dns,
            Failure::Timeout,
            Failure::Connection,
            Failure::Proxy,
            Failure::Blocked,
            Failure::Other,
        ] {
            let r = TestWebhookResult::new("http://h/", Observation::Failed(f), 1);
            assert!(!r.ok && r.status_code.is_none());
            let json = serde_json::to_value(&r).unwrap();
            assert!(json.get("status_code").is_none());
        }
    }

    #[test]
    fn sample_round_trips() {
        let text = r#"{"ok":false,"url":"http://h/x","status_code":302,"outcome":"webhook.http.other","latency_ms":7,"hint":"h"}"#;
        let r: TestWebhookResult = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), text);
    }

    #[test]
    fn reading_refuses_broken_relations() {
        let cases = [
            (
                r#"{"ok":false,"url":"u","status_code":200,"outcome":"webhook.ok","latency_ms":1,"hint":"h"}"#,
                "ok must be true exactly for webhook.ok",
            ),
            (
                r#"{"ok":false,"url":"u","status_code":500,"outcome":"webhook.err.conn","latency_ms":1,"hint":"h"}"#,
                "failures carry no status",
            ),
            (
                r#"{"ok":false,"url":"u","outcome":"webhook.http.404","latency_ms":1,"hint":"h"}"#,
                "needs a status_code",
            ),
            (
                r#"{"ok":false,"url":"u","status_code":301,"outcome":"webhook.http.5xx","latency_ms":1,"hint":"h"}"#,
                "does not classify",
            ),
            (
                r#"{"ok":false,"url":"u","outcome":"webhook.bad","latency_ms":1,"hint":"h"}"#,
                "unknown variant",
            ),
        ];
        for (text, want) in cases {
            let err = serde_json::from_str::<TestWebhookResult>(text).unwrap_err();
            assert!(err.to_string().contains(want), "{text}: {err}");
        }
    }
}
