//! What an empty database starts with, the same for every store: the quota assets (from
//! the operator's seed file or [`SAMPLE_ASSETS`]) and the demo access token.

use std::collections::HashMap;
use std::path::Path;

use chatmark_api::{QuotaAsset, QuotaOwner};

/// The access token seeded when the database holds none (documented in the README).
pub const DEMO_ACCESS_TOKEN: &str = "demo-oa-token";

/// The assets seeded when the database holds none and no seed file is given.
pub const SAMPLE_ASSETS: &str = r#"{
  "OA": [
    {"product_type": "gmf10", "quota_type": "sub_quota", "asset_id": "oa-1", "valid_through": "25/12/2026", "auto_renew": true, "status": "available", "used_id": null},
    {"product_type": "gmf50", "quota_type": "purchase_quota", "asset_id": "oa-2", "valid_through": "1/6/2027", "auto_renew": "false", "status": "used", "used_id": "group-17"},
    {"product_type": "gmf100", "quota_type": "sub_quota", "asset_id": "oa-3", "valid_through": "31/01/2027", "auto_renew": "true", "status": "available", "used_id": null}
  ],
  "APP": [
    {"product_type": "gmf100", "quota_type": "purchase_quota", "asset_id": "app-1", "valid_through": "29/02/2028", "auto_renew": false, "status": "used", "used_id": 4242}
  ]
}"#;

/// Quota assets per owner, as a seed file holds them (`{"OA": [...], "APP": [...]}`).
pub type Assets = HashMap<QuotaOwner, Vec<QuotaAsset>>;

/// The assets of the seed file `seed` (else [`SAMPLE_ASSETS`]) and where they came from,
/// for the operator's note.
pub fn load(seed: Option<&Path>) -> Result<(Assets, String), String> {
    let (text, from) = match seed {
        Some(p) => (
            std::fs::read_to_string(p)
                .map_err(|e| format!("CHATMARK_QUOTA_SEED {}: {e}", p.display()))?,
            p.display().to_string(),
        ),
        None => (SAMPLE_ASSETS.to_owned(), "the built-in sample".to_owned()),
    };
    let parsed = serde_json::from_str(&text).map_err(|e| format!("quota seed {from}: {e}"))?;
    Ok((parsed, from))
}

/// The owners in the order their assets are stored.
pub const OWNERS: [QuotaOwner; 2] = [QuotaOwner::Oa, QuotaOwner::App];

/// The name a store keeps `owner` under (its wire name).
pub fn owner_name(owner: QuotaOwner) -> &'static str {
    match owner {
        QuotaOwner::Oa => "OA",
        QuotaOwner::App => "APP",
    }
}

/// Whether the demo token must go: real tokens are given and it is not one of them.
pub fn revokes_demo_token(access_tokens: &[String]) -> bool {
    !access_tokens.is_empty() && !access_tokens.iter().any(|t| t == DEMO_ACCESS_TOKEN)
}

/// The operator's note when the demo token was revoked.
pub fn revoked_note() -> String {
    format!(
        "revoked the demo quota access token {DEMO_ACCESS_TOKEN:?} (CHATMARK_QUOTA_TOKENS names real ones)"
    )
}

/// The operator's note when the demo token was seeded.
pub fn demo_note() -> String {
    format!(
        "seeded the demo quota access token {DEMO_ACCESS_TOKEN:?} (set CHATMARK_QUOTA_TOKENS for real ones)"
    )
}
