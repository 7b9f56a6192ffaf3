//! chatmark-api: the Bot API's wire types as serde models — the response envelope,
//! `sendMessage` (resolved through chatmark, spec section 5), `testWebhook` with its outcome
//! codes and the blocked-target guard, the group quota query, and the [`store::Store`] trait
//! over a server's state. The library does no networking and no database access;
//! `examples/server` shows the types behind an HTTP server storing its state in SQLite (one
//! process) or PostgreSQL (several instances); see the crate's README.
//!
//! ```
//! use chatmark_api::{Envelope, SendMessageResult};
//! let env: Envelope<SendMessageResult> =
//!     serde_json::from_str(r#"{"ok":true,"result":{"message_id":"1","date":1767225600000}}"#).unwrap();
//! assert_eq!(env.result.unwrap().message_id, 1);
//! ```

pub mod blocked;
pub mod envelope;
pub mod quota;
pub mod send_message;
pub mod store;
pub mod webhook;

pub use blocked::{check_target, is_blocked_ip, BlockReason, Host, UrlError, WebhookUrl};
pub use envelope::{ApiError, Envelope};
pub use quota::{
    AssetStatus, Date, FilterError, ProductType, QuotaAsset, QuotaOwner, QuotaRequest,
    QuotaResponse, ValidThrough, QUOTA_TYPES,
};
pub use send_message::{
    canonical_chat_id, resolve_send_message, EpochMillis, SendMessageRequest, SendMessageResult,
};
pub use webhook::{Failure, Observation, Outcome, TestWebhookResult};
