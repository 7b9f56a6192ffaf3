//! The group quota query (`POST /v3.0/oa/quota/group`): the request with its optional
//! filters, the asset records (dates as `dd/mm/yyyy`, lenient `auto_renew`, open product
//! types) and the response `{data, error, message}`.

use core::fmt;

use serde::de::{self, Deserializer, Unexpected};
use serde::{Deserialize, Serialize};

/// Whose quota is asked for: the official account's or the app's.
///
/// # Examples
///
/// ```
/// use chatmark_api::QuotaOwner;
/// assert_eq!(serde_json::from_str::<QuotaOwner>(r#""APP""#).unwrap(), QuotaOwner::App);
/// assert!(serde_json::from_str::<QuotaOwner>(r#""app""#).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QuotaOwner {
    /// The official account (`OA`).
    #[serde(rename = "OA")]
    Oa,
    /// The app (`APP`).
    #[serde(rename = "APP")]
    App,
}

/// A quota product; unknown names (such as `gmf1000`) are kept as [`ProductType::Other`].
///
/// # Examples
///
/// ```
/// use chatmark_api::ProductType;
/// assert_eq!(ProductType::from("gmf10"), ProductType::Gmf10);
/// assert_eq!(ProductType::from("gmf1000"), ProductType::Other("gmf1000".into()));
/// assert_eq!(serde_json::to_string(&ProductType::Other("gmf1000".into())).unwrap(), r#""gmf1000""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ProductType {
    /// `gmf10`: group messaging for groups of up to 10 members.
    Gmf10,
    /// `gmf50`: group messaging for groups of up to 50 members.
    Gmf50,
    /// `gmf100`: group messaging for groups of up to 100 members.
    Gmf100,
    /// Any other product name, kept as sent.
    Other(String),
}

impl ProductType {
    /// The wire name.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::ProductType::Gmf50.as_str(), "gmf50");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            ProductType::Gmf10 => "gmf10",
            ProductType::Gmf50 => "gmf50",
            ProductType::Gmf100 => "gmf100",
            ProductType::Other(s) => s,
        }
    }
}

impl From<&str> for ProductType {
    fn from(s: &str) -> Self {
        match s {
            "gmf10" => ProductType::Gmf10,
            "gmf50" => ProductType::Gmf50,
            "gmf100" => ProductType::Gmf100,
            other => ProductType::Other(other.to_owned()),
        }
    }
}

impl From<String> for ProductType {
    fn from(s: String) -> Self {
        match ProductType::from(s.as_str()) {
            ProductType::Other(_) => ProductType::Other(s),
            known => known,
        }
    }
}

impl From<ProductType> for String {
    fn from(p: ProductType) -> Self {
        match p {
            ProductType::Other(s) => s,
            known => known.as_str().to_owned(),
        }
    }
}

impl fmt::Display for ProductType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A calendar date (proleptic Gregorian), ordered chronologically.
///
/// # Examples
///
/// ```
/// let d = chatmark_api::Date::new(2028, 2, 29).unwrap();
/// assert_eq!(d.to_string(), "2028-02-29");
/// assert!(chatmark_api::Date::new(2026, 2, 29).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    /// The date, if `day` exists in `month` of `year`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark_api::Date::new(2026, 12, 31).is_some());
    /// assert!(chatmark_api::Date::new(2026, 13, 1).is_none());
    /// ```
    pub const fn new(year: u16, month: u8, day: u8) -> Option<Self> {
        let leap =
            year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day >= 1 && day <= days {
            Some(Date { year, month, day })
        } else {
            None
        }
    }

    /// The year.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::Date::new(2026, 1, 2).unwrap().year(), 2026);
    /// ```
    pub const fn year(self) -> u16 {
        self.year
    }

    /// The month, 1–12.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::Date::new(2026, 1, 2).unwrap().month(), 1);
    /// ```
    pub const fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, 1–31.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::Date::new(2026, 1, 2).unwrap().day(), 2);
    /// ```
    pub const fn day(self) -> u8 {
        self.day
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// `valid_through` as sent (`25/12/2026`, day/month/year), with the date it names; it is
/// written back as the original text.
///
/// # Examples
///
/// ```
/// let v: chatmark_api::ValidThrough = serde_json::from_str(r#""5/1/2027""#).unwrap();
/// assert_eq!(v.date().to_string(), "2027-01-05");
/// assert_eq!(serde_json::to_string(&v).unwrap(), r#""5/1/2027""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ValidThrough {
    date: Date,
    text: String,
}

impl ValidThrough {
    /// Reads `day/month/year`: day and month of one or two digits, a four-digit year.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::ValidThrough;
    /// assert!(ValidThrough::parse("25/12/2026").is_ok());
    /// assert!(ValidThrough::parse("2026-12-25").is_err());
    /// assert!(ValidThrough::parse("31/04/2026").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let fail = |why: &str| format!("valid_through {text:?}: {why}");
        let mut parts = text.split('/');
        let (Some(d), Some(m), Some(y), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(fail("expected day/month/year, e.g. 25/12/2026"));
        };
        let digits = |s: &str, min: usize, max: usize| {
            (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        if !(digits(d, 1, 2) && digits(m, 1, 2) && digits(y, 4, 4)) {
            return Err(fail("expected day/month/year, e.g. 25/12/2026"));
        }
        let (Ok(d), Ok(m), Ok(y)) = (d.parse(), m.parse(), y.parse()) else {
            return Err(fail("expected day/month/year, e.g. 25/12/2026"));
        };
        let date = Date::new(y, m, d).ok_or_else(|| fail("no such date"))?;
        Ok(ValidThrough {
            date,
            text: text.to_owned(),
        })
    }

    /// The date named.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = chatmark_api::ValidThrough::parse("01/02/2026").unwrap();
    /// assert_eq!(v.date(), chatmark_api::Date::new(2026, 2, 1).unwrap());
    /// ```
    pub const fn date(&self) -> Date {
        self.date
    }

    /// The text as it was sent.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::ValidThrough::parse("1/2/2026").unwrap().as_str(), "1/2/2026");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl TryFrom<String> for ValidThrough {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        ValidThrough::parse(&s)
    }
}

impl From<ValidThrough> for String {
    fn from(v: ValidThrough) -> Self {
        v.text
    }
}

/// Whether an asset is still free to use.
///
/// # Examples
///
/// ```
/// assert_eq!(serde_json::to_string(&chatmark_api::AssetStatus::Used).unwrap(), r#""used""#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AssetStatus {
    /// Not used yet.
    Available,
    /// Already used (see `used_id`).
    Used,
}

/// One quota asset of the group quota response (unknown fields are ignored when reading).
///
/// # Examples
///
/// ```
/// let a: chatmark_api::QuotaAsset = serde_json::from_str(r#"{
///     "product_type": "gmf1000", "quota_type": "sub_quota", "asset_id": "a1",
///     "valid_through": "25/12/2026", "auto_renew": "true", "status": "available", "used_id": null
/// }"#).unwrap();
/// assert!(a.auto_renew);
/// assert_eq!(a.product_type.as_str(), "gmf1000");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaAsset {
    /// The product the asset belongs to.
    pub product_type: ProductType,
    /// The kind of quota, kept as sent.
    pub quota_type: String,
    /// The asset's id.
    pub asset_id: String,
    /// The last day the asset can be used.
    pub valid_through: ValidThrough,
    /// Whether it renews itself; read from a boolean or `"true"`/`"false"`.
    #[serde(deserialize_with = "bool_or_string")]
    pub auto_renew: bool,
    /// `available` or `used`.
    pub status: AssetStatus,
    /// What used the asset (a group id); `null` while available. Read from a string or an
    /// integer.
    #[serde(default, deserialize_with = "opt_id")]
    pub used_id: Option<String>,
}

fn bool_or_string<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    struct V;
    impl de::Visitor<'_> for V {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(r#"a boolean or "true"/"false""#)
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
            Ok(v)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
            match v {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(E::invalid_value(Unexpected::Str(v), &self)),
            }
        }
    }
    d.deserialize_any(V)
}

fn opt_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct V;
    impl<'de> de::Visitor<'de> for V {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string, an integer or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            d.deserialize_any(V)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
    }
    d.deserialize_option(V)
}

/// The quota types the platform defines, the values a request's `quota_type` filter takes.
pub const QUOTA_TYPES: [&str; 3] = ["sub_quota", "purchase_quota", "reward_quota"];

/// A quota request's filter with a value outside the platform's list
/// ([`QuotaRequest::check`]): the field, the value sent and the values allowed.
///
/// # Examples
///
/// ```
/// let e = chatmark_api::FilterError { field: "quota_type", value: "subquota".into(), allowed: "sub_quota, purchase_quota, reward_quota" };
/// assert_eq!(e.to_string(), "quota_type \"subquota\" is not one of sub_quota, purchase_quota, reward_quota");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    /// `product_type` or `quota_type`.
    pub field: &'static str,
    /// The value sent.
    pub value: String,
    /// The values allowed, as a list for the message.
    pub allowed: &'static str,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:?} is not one of {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for FilterError {}

/// The group quota request `{quota_owner, product_type?, quota_type?}` (the `access_token`
/// travels in a header).
///
/// # Examples
///
/// ```
/// let r: chatmark_api::QuotaRequest =
///     serde_json::from_str(r#"{"quota_owner":"OA","product_type":"gmf10"}"#).unwrap();
/// assert_eq!(r.product_type, Some(chatmark_api::ProductType::Gmf10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuotaRequest {
    /// Whose assets to list.
    pub quota_owner: QuotaOwner,
    /// Only assets of this product, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_type: Option<ProductType>,
    /// Only assets of this quota type, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota_type: Option<String>,
}

impl QuotaRequest {
    /// Whether `asset` passes the request's optional filters (the owner chooses the list the
    /// asset comes from, not the asset itself).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{QuotaAsset, QuotaRequest};
    /// let req: QuotaRequest = serde_json::from_str(r#"{"quota_owner":"OA","quota_type":"sub_quota"}"#).unwrap();
    /// let a: QuotaAsset = serde_json::from_str(r#"{"product_type":"gmf10","quota_type":"sub_quota","asset_id":"1","valid_through":"1/1/2027","auto_renew":false,"status":"used","used_id":"g1"}"#).unwrap();
    /// assert!(req.matches(&a));
    /// ```
    pub fn matches(&self, asset: &QuotaAsset) -> bool {
        self.product_type
            .as_ref()
            .is_none_or(|p| *p == asset.product_type)
            && self
                .quota_type
                .as_ref()
                .is_none_or(|q| *q == asset.quota_type)
    }

    /// Checks the filters against the platform's values: `product_type` one of `gmf10`,
    /// `gmf50`, `gmf100`, and `quota_type` one of [`QUOTA_TYPES`]. A server answers the
    /// error (which names the field) instead of an empty list, so that a typo does not read
    /// as "no assets". (Reading a *response* stays tolerant of other product types.)
    ///
    /// # Examples
    ///
    /// ```
    /// let ok: chatmark_api::QuotaRequest = serde_json::from_str(r#"{"quota_owner":"OA","product_type":"gmf50"}"#).unwrap();
    /// assert!(ok.check().is_ok());
    /// let typo: chatmark_api::QuotaRequest = serde_json::from_str(r#"{"quota_owner":"OA","product_type":"gmf1000"}"#).unwrap();
    /// let e = typo.check().unwrap_err();
    /// assert_eq!(e.field, "product_type");
    /// assert!(e.to_string().contains("gmf1000"));
    /// ```
    pub fn check(&self) -> Result<(), FilterError> {
        if let Some(ProductType::Other(p)) = &self.product_type {
            return Err(FilterError {
                field: "product_type",
                value: p.clone(),
                allowed: "gmf10, gmf50, gmf100",
            });
        }
        if let Some(q) = self
            .quota_type
            .as_ref()
            .filter(|q| !QUOTA_TYPES.contains(&q.as_str()))
        {
            return Err(FilterError {
                field: "quota_type",
                value: q.clone(),
                allowed: "sub_quota, purchase_quota, reward_quota",
            });
        }
        Ok(())
    }

    /// The assets of `assets` passing the filters, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// let req: chatmark_api::QuotaRequest = serde_json::from_str(r#"{"quota_owner":"APP"}"#).unwrap();
    /// assert!(req.filter(&[]).is_empty());
    /// ```
    pub fn filter(&self, assets: &[QuotaAsset]) -> Vec<QuotaAsset> {
        assets.iter().filter(|a| self.matches(a)).cloned().collect()
    }
}

/// The group quota response `{data, error, message}`: `error` is 0 on success.
///
/// # Examples
///
/// ```
/// let r = chatmark_api::QuotaResponse::failure(401, "access_token is required");
/// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"data":[],"error":401,"message":"access_token is required"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaResponse {
    /// The assets (empty on failure; `null` reads as empty).
    #[serde(default, deserialize_with = "null_as_empty")]
    pub data: Vec<QuotaAsset>,
    /// 0 on success, nonzero on failure.
    pub error: i64,
    /// `Success`, or what went wrong.
    pub message: String,
}

fn null_as_empty<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<QuotaAsset>, D::Error> {
    Ok(Option::<Vec<QuotaAsset>>::deserialize(d)?.unwrap_or_default())
}

impl QuotaResponse {
    /// A successful answer listing `data`.
    ///
    /// # Examples
    ///
    /// ```
    /// let r = chatmark_api::QuotaResponse::success(vec![]);
    /// assert_eq!((r.error, r.message.as_str()), (0, "Success"));
    /// ```
    pub fn success(data: Vec<QuotaAsset>) -> Self {
        QuotaResponse {
            data,
            error: 0,
            message: "Success".to_owned(),
        }
    }

    /// A failed answer: no data, a nonzero `error` and a message.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::QuotaResponse::failure(400, "bad").error, 400);
    /// ```
    pub fn failure(error: i64, message: impl Into<String>) -> Self {
        QuotaResponse {
            data: Vec::new(),
            error,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{"data":[
        {"product_type":"gmf10","quota_type":"sub_quota","asset_id":"a1","valid_through":"25/12/2026","auto_renew":true,"status":"available","used_id":null},
        {"product_type":"gmf1000","quota_type":"purchase_quota","asset_id":"a2","valid_through":"1/2/2027","auto_renew":"false","status":"used","used_id":"g-9"},
        {"product_type":"gmf50","quota_type":"sub_quota","asset_id":"a3","valid_through":"29/02/2028","auto_renew":"true","status":"used","used_id":12345}
    ],"error":0,"message":"Success"}"#;

    #[test]
    fn sample_reads_and_writes_back() {
        let r: QuotaResponse = serde_json::from_str(SAMPLE).unwrap();
        assert_eq!(r.data.len(), 3);
        assert_eq!(r.data[1].product_type, ProductType::Other("gmf1000".into()));
        assert_eq!(
            (
                r.data[0].auto_renew,
                r.data[1].auto_renew,
                r.data[2].auto_renew
            ),
            (true, false, true)
        );
        assert_eq!(r.data[2].used_id.as_deref(), Some("12345"));
        assert_eq!(
            r.data[2].valid_through.date(),
            Date::new(2028, 2, 29).unwrap()
        );
        let out = serde_json::to_value(&r).unwrap();
        assert_eq!(out["data"][2]["valid_through"], "29/02/2028");
        assert_eq!(out["data"][1]["auto_renew"], false);
        let again: QuotaResponse = serde_json::from_value(out).unwrap();
        assert_eq!(again, r);
    }

    #[test]
    fn null_data_reads_as_empty() {
        let r: QuotaResponse =
            serde_json::from_str(r#"{"data":null,"error":-201,"message":"bad"}"#).unwrap();
        assert!(r.data.is_empty());
    }

    #[test]
    fn rejections_are_clear() {
        let asset = |field: &str, value: &str| {
            let mut v: serde_json::Value = serde_json::from_str(
                r#"{"product_type":"gmf10","quota_type":"q","asset_id":"a","valid_through":"1/1/2027","auto_renew":true,"status":"used","used_id":"g"}"#,
            )
            .unwrap();
            v[field] = serde_json::from_str(value).unwrap();
            serde_json::from_value::<QuotaAsset>(v).map_err(|e| e.to_string())
        };
        let cases = [
            (
                "valid_through",
                r#""2026-12-25""#,
                "expected day/month/year",
            ),
            ("valid_through", r#""31/11/2026""#, "no such date"),
            ("valid_through", r#""1/1/26""#, "expected day/month/year"),
            ("auto_renew", r#""yes""#, r#"a boolean or "true"/"false""#),
            ("auto_renew", "1", r#"a boolean or "true"/"false""#),
            ("status", r#""expired""#, "unknown variant `expired`"),
            ("used_id", "true", "a string, an integer or null"),
        ];
        for (field, value, want) in cases {
            let err = asset(field, value).unwrap_err();
            assert!(err.contains(want), "{field}={value}: {err}");
        }
        assert!(asset("auto_renew", r#""false""#).is_ok());
        let err = serde_json::from_str::<QuotaRequest>(r#"{"quota_owner":"USER"}"#).unwrap_err();
        assert!(err.to_string().contains("expected `OA` or `APP`"), "{err}");
        let err = serde_json::from_str::<QuotaRequest>(r#"{"quota_owner":"OA","product":"x"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("unknown field `product`"), "{err}");
    }

    #[test]
    fn filters_apply() {
        let r: QuotaResponse = serde_json::from_str(SAMPLE).unwrap();
        let ids = |req: &str| {
            let req: QuotaRequest = serde_json::from_str(req).unwrap();
            req.filter(&r.data)
                .into_iter()
                .map(|a| a.asset_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(r#"{"quota_owner":"OA"}"#), ["a1", "a2", "a3"]);
        assert_eq!(
            ids(r#"{"quota_owner":"OA","product_type":"gmf1000"}"#),
            ["a2"]
        );
        assert_eq!(
            ids(r#"{"quota_owner":"OA","quota_type":"sub_quota"}"#),
            ["a1", "a3"]
        );
        assert_eq!(
            ids(r#"{"quota_owner":"OA","product_type":"gmf50","quota_type":"sub_quota"}"#),
            ["a3"]
        );
        assert!(ids(r#"{"quota_owner":"OA","product_type":"gmf100"}"#).is_empty());
    }
}
