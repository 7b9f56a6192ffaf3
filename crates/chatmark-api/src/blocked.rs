//! The blocked-target guard against server-side request forgery: a small `http(s)` URL
//! reader and a pure decision, over the URL and the addresses its host resolved to, of
//! whether probing it must answer `webhook.err.blocked`.
//!
//! The reader accepts a strict subset of WHATWG URLs: scheme `http` or `https`, `//`, no
//! userinfo, an ASCII host (a name, an IPv4 address in any of WHATWG's numeric spellings, or
//! a bracketed IPv6 address without zone), an optional port, then path and query (the
//! fragment is dropped). Anything else is refused rather than guessed, so the guard and the
//! prober can never read one URL two ways.

use core::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The host of a [`WebhookUrl`]: an address literal or a (lower-cased) name.
///
/// # Examples
///
/// ```
/// use chatmark_api::{Host, WebhookUrl};
/// let u = WebhookUrl::parse("http://[::1]:8080/").unwrap();
/// assert_eq!(u.host, Host::Ip("::1".parse().unwrap()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// An IPv4 or IPv6 literal.
    Ip(IpAddr),
    /// A DNS name, lower-cased, without a trailing dot.
    Name(String),
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Ip(IpAddr::V6(a)) => write!(f, "[{a}]"),
            Host::Ip(a) => a.fmt(f),
            Host::Name(n) => f.write_str(n),
        }
    }
}

/// A parsed `http` or `https` URL, as the prober uses it.
///
/// # Examples
///
/// ```
/// let u = chatmark_api::WebhookUrl::parse("HTTP://Example.COM./hook?x=1#frag").unwrap();
/// assert_eq!((u.https, u.port, u.target.as_str()), (false, 80, "/hook?x=1"));
/// assert_eq!(u.host.to_string(), "example.com");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WebhookUrl {
    /// `https` rather than `http`.
    pub https: bool,
    /// The host.
    pub host: Host,
    /// The port, the scheme's default when none is written.
    pub port: u16,
    /// Path and query, as sent in a request line (at least `/`).
    pub target: String,
}

/// Why a URL could not be read, or is refused outright.
///
/// # Examples
///
/// ```
/// let e = chatmark_api::WebhookUrl::parse("ftp://example.com/").unwrap_err();
/// assert_eq!(e.to_string(), r#"scheme "ftp" is not http or https"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// No `scheme:` prefix.
    #[error("the URL has no scheme")]
    NoScheme,
    /// A scheme other than `http` and `https`.
    #[error("scheme {0:?} is not http or https")]
    Scheme(String),
    /// The scheme is not followed by `//`.
    #[error("the URL has no //host part")]
    NoAuthority,
    /// `user:password@` before the host.
    #[error("the URL carries credentials (userinfo), which are not allowed")]
    Userinfo,
    /// Whitespace, control characters or backslashes.
    #[error("the URL contains whitespace, control characters or backslashes")]
    BadCharacter,
    /// No host between `//` and the path.
    #[error("the URL has an empty host")]
    EmptyHost,
    /// A host that is not a valid name or address.
    #[error("invalid host {0:?}")]
    Host(String),
    /// A port that is not a number in 1–65535.
    #[error("invalid port {0:?}")]
    Port(String),
}

/// Why a target is blocked (the prober answers `webhook.err.blocked`).
///
/// # Examples
///
/// ```
/// let e = chatmark_api::check_target("http://10.0.0.1/", &[]).unwrap_err();
/// assert_eq!(e.to_string(), "address 10.0.0.1 is in a blocked range (private)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlockReason {
    /// The URL is unreadable, not http(s), or carries credentials.
    #[error("{0}")]
    Url(#[from] UrlError),
    /// The host is `localhost` or a name under `.localhost`.
    #[error("host {0:?} is a localhost name")]
    LocalhostName(String),
    /// The host or one of its resolved addresses is in a blocked range.
    #[error("address {addr} is in a blocked range ({range})")]
    Address {
        /// The offending address.
        addr: IpAddr,
        /// The range's name.
        range: &'static str,
    },
}

impl WebhookUrl {
    /// Reads an `http(s)` URL (see the module's documentation for what is accepted).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{Host, WebhookUrl};
    /// let u = WebhookUrl::parse("http://0x7f.1/").unwrap();
    /// assert_eq!(u.host, Host::Ip("127.0.0.1".parse().unwrap()));
    /// assert!(WebhookUrl::parse("http://user@example.com/").is_err());
    /// ```
    pub fn parse(input: &str) -> Result<Self, UrlError> {
        if input
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
        {
            return Err(UrlError::BadCharacter);
        }
        let (scheme, rest) = input.split_once(':').ok_or(UrlError::NoScheme)?;
        if scheme.is_empty() || !scheme.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(UrlError::NoScheme);
        }
        let https = if scheme.eq_ignore_ascii_case("http") {
            false
        } else if scheme.eq_ignore_ascii_case("https") {
            true
        } else {
            return Err(UrlError::Scheme(scheme.to_owned()));
        };
        let rest = rest.strip_prefix("//").ok_or(UrlError::NoAuthority)?;
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        if authority.contains('@') {
            return Err(UrlError::Userinfo);
        }
        let (host, port) = split_host_port(authority)?;
        let port = match port {
            None | Some("") => {
                if https {
                    443
                } else {
                    80
                }
            }
            Some(p) => p
                .parse::<u16>()
                .ok()
                .filter(|&n| n != 0 && p.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| UrlError::Port(p.to_owned()))?,
        };
        let host = parse_host(host)?;
        let tail = tail.split_once('#').map_or(tail, |(t, _)| t);
        let mut target = String::with_capacity(tail.len() + 1);
        if !tail.starts_with('/') {
            target.push('/');
        }
        for c in tail.chars() {
            if c.is_ascii() {
                target.push(c);
            } else {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    target.push_str(&format!("%{b:02X}"));
                }
            }
        }
        Ok(WebhookUrl {
            https,
            host,
            port,
            target,
        })
    }
}

fn split_host_port(authority: &str) -> Result<(&str, Option<&str>), UrlError> {
    let bad = || UrlError::Host(authority.to_owned());
    if authority.starts_with('[') {
        // Bracketed IPv6: the host keeps its brackets, which `parse_host` recognises.
        let close = authority.find(']').ok_or_else(bad)?;
        let (host, after) = authority.split_at(close + 1);
        match after.strip_prefix(':') {
            Some(port) => Ok((host, Some(port))),
            None if after.is_empty() => Ok((host, None)),
            None => Err(bad()),
        }
    } else {
        Ok(match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        })
    }
}

fn parse_host(host: &str) -> Result<Host, UrlError> {
    if host.is_empty() {
        return Err(UrlError::EmptyHost);
    }
    let bad = || UrlError::Host(host.to_owned());
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner
            .parse::<Ipv6Addr>()
            .map(|a| Host::Ip(IpAddr::V6(a)))
            .map_err(|_| bad());
    }
    if !host.is_ascii() {
        // Internationalised names would need IDNA mapping; refuse them rather than guess.
        return Err(bad());
    }
    let lower = host.to_ascii_lowercase();
    let name = lower.strip_suffix('.').unwrap_or(&lower);
    if name.is_empty() {
        return Err(UrlError::EmptyHost);
    }
    let labels: Vec<&str> = name.split('.').collect();
    if labels.last().is_some_and(|l| is_numeric_label(l)) {
        return parse_ipv4(&labels)
            .map(|a| Host::Ip(IpAddr::V4(a)))
            .ok_or_else(bad);
    }
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if name.len() > 253 || !labels.iter().all(label_ok) {
        return Err(bad());
    }
    Ok(Host::Name(name.to_owned()))
}

/// WHATWG's "ends in a number": all decimal digits, or `0x` followed by hex digits.
fn is_numeric_label(l: &str) -> bool {
    if let Some(hex) = l.strip_prefix("0x") {
        hex.bytes().all(|b| b.is_ascii_hexdigit())
    } else {
        !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit())
    }
}

/// WHATWG's IPv4 parser: 1 to 4 parts, each decimal, octal (leading `0`) or hex (`0x`).
fn parse_ipv4(parts: &[&str]) -> Option<Ipv4Addr> {
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in parts {
        if p.contains('+') {
            // `from_str_radix` would accept a sign; WHATWG does not.
            return None;
        }
        let n = if let Some(hex) = p.strip_prefix("0x") {
            if hex.is_empty() {
                0
            } else {
                u64::from_str_radix(hex, 16).ok()?
            }
        } else if let Some(oct) = p.strip_prefix('0').filter(|o| !o.is_empty()) {
            u64::from_str_radix(oct, 8).ok()?
        } else {
            p.parse::<u64>().ok()?
        };
        nums.push(n);
    }
    let (last, init) = nums.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let free_bits = 8 * (5 - nums.len() as u32);
    if *last >= 1u64 << free_bits {
        return None;
    }
    let mut addr = *last;
    for (i, &n) in init.iter().enumerate() {
        addr |= n << (24 - 8 * i as u32);
    }
    u32::try_from(addr).ok().map(Ipv4Addr::from)
}

/// The IPv4 blocks of IANA's IPv4 Special-Purpose Address Registry that are not globally
/// reachable, and multicast (224.0.0.0/4, from the multicast registry): no webhook may target
/// them. Checked in order, so the globally reachable exceptions inside a blocked block come
/// first (`None`: allowed).
const V4_SPECIAL: &[(u32, u8, Option<&str>)] = &[
    (0xC000_0009, 32, None), // Port Control Protocol anycast (RFC 7723): globally reachable
    (0xC000_000A, 32, None), // TURN anycast (RFC 8155): globally reachable
    (0xC058_6302, 32, None), // 6a44-relay anycast (RFC 6751): globally reachable
    (0x0000_0000, 8, Some("unspecified (this network)")),
    (0x0A00_0000, 8, Some("private")),
    (0x6440_0000, 10, Some("shared address space (CGNAT)")),
    (0x7F00_0000, 8, Some("loopback")),
    (0xA9FE_0000, 16, Some("link-local")),
    (0xAC10_0000, 12, Some("private")),
    // IPv4 service continuity, dummy address, NAT64/DNS64 discovery… (RFC 6890)
    (0xC000_0000, 24, Some("IETF protocol assignments")),
    (0xC000_0200, 24, Some("documentation")),
    (0xC058_6300, 24, Some("6to4 relay anycast (deprecated)")),
    (0xC0A8_0000, 16, Some("private")),
    (0xC612_0000, 15, Some("benchmarking")),
    (0xC633_6400, 24, Some("documentation")),
    (0xCB00_7100, 24, Some("documentation")),
    (0xE000_0000, 4, Some("multicast")),
    (0xFFFF_FFFF, 32, Some("broadcast")),
    (0xF000_0000, 4, Some("reserved")),
];

/// The IPv6 blocks no webhook may target, in order (`None`: allowed, an exception inside a
/// later block): IANA's IPv6 Special-Purpose Address Registry's blocks that are not globally
/// reachable, multicast and the deprecated site-local block; then everything outside global
/// unicast (2000::/3). The forms that embed an IPv4 address are judged before this table
/// (see [`embedded_v4`]).
const V6_SPECIAL: &[(u128, u8, Option<&str>)] = &[
    (0, 128, Some("unspecified")),
    (1, 128, Some("loopback")),
    (0x0100 << 112, 64, Some("discard-only")),
    (0x0100_0000_0000_0001 << 64, 64, Some("dummy prefix")),
    // inside 2001::/23, the globally reachable assignments: PCP, TURN and DNS-SD SRP
    // anycast, AMT, AS112-v6, ORCHIDv2 and drone remote ID tags
    ((0x2001_0001 << 96) | 1, 128, None),
    ((0x2001_0001 << 96) | 2, 128, None),
    ((0x2001_0001 << 96) | 3, 128, None),
    (0x2001_0003 << 96, 32, None),
    (0x2001_0004_0112 << 80, 48, None),
    (0x2001_0020 << 96, 28, None),
    (0x2001_0030 << 96, 28, None),
    (0x2001_0002 << 96, 48, Some("benchmarking")),
    (0x2001_0010 << 96, 28, Some("ORCHID (deprecated)")),
    (0x2001_0db8 << 96, 32, Some("documentation")),
    (0x2001 << 112, 23, Some("IETF protocol assignments")),
    (0x3fff << 112, 20, Some("documentation")),
    (0x5f00 << 112, 16, Some("segment routing (SRv6) SIDs")),
    (0xfc00 << 112, 7, Some("unique-local")),
    (0xfe80 << 112, 10, Some("link-local")),
    (0xfec0 << 112, 10, Some("site-local (deprecated)")),
    (0xff00 << 112, 8, Some("multicast")),
    (0x2000 << 112, 3, None),
    (0, 0, Some("reserved (outside global unicast 2000::/3)")),
];

fn in_v4(addr: u32, net: u32, prefix: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
    addr & mask == net & mask
}

/// An IPv6 form embedding an IPv4 address, with the address(es) it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Embedding {
    /// `::ffff:a.b.c.d`: a socket on this host reaches `a.b.c.d` itself.
    Mapped(Ipv4Addr),
    /// `::ffff:0:a.b.c.d` (SIIT, RFC 6145): not routed beyond a translator's domain.
    Translated(Ipv4Addr),
    /// `::a.b.c.d` (deprecated, RFC 4291).
    Compatible(Ipv4Addr),
    /// `64:ff9b::a.b.c.d`, the NAT64 well-known prefix (RFC 6052): globally reachable.
    Nat64(Ipv4Addr),
    /// `64:ff9b:1::/48`, NAT64 prefixes for local use (RFC 8215), the address in the last
    /// 32 bits (a /96 under it): not globally reachable.
    Nat64Local(Ipv4Addr),
    /// `2002:AABB:CCDD::/48`, 6to4 (RFC 3056), carrying `AA.BB.CC.DD`.
    SixToFour(Ipv4Addr),
    /// `2001:0:SSSS:SSSS:…:CCCC:CCCC`, Teredo (RFC 4380): the server's address, and the
    /// client's public address (stored inverted).
    Teredo(Ipv4Addr, Ipv4Addr),
}

/// The IPv4 address(es) an IPv6 address embeds, by the form it has, if any (`::` and `::1`
/// are not IPv4-compatible addresses).
fn embedded_v4(bits: u128) -> Option<Embedding> {
    let low = Ipv4Addr::from((bits & 0xFFFF_FFFF) as u32);
    let prefix = |net: u128, len: u8| in_v6(bits, net, len);
    Some(if prefix(0xffff << 32, 96) {
        Embedding::Mapped(low)
    } else if prefix(0xffff << 48, 96) {
        Embedding::Translated(low)
    } else if prefix(0, 96) && bits > 1 {
        Embedding::Compatible(low)
    } else if prefix(0x0064_ff9b << 96, 96) {
        Embedding::Nat64(low)
    } else if prefix(0x0064_ff9b_0001 << 80, 48) {
        Embedding::Nat64Local(low)
    } else if prefix(0x2002 << 112, 16) {
        Embedding::SixToFour(Ipv4Addr::from(((bits >> 80) & 0xFFFF_FFFF) as u32))
    } else if prefix(0x2001 << 112, 32) {
        let server = Ipv4Addr::from(((bits >> 64) & 0xFFFF_FFFF) as u32);
        Embedding::Teredo(server, Ipv4Addr::from(!((bits & 0xFFFF_FFFF) as u32)))
    } else {
        return None;
    })
}

fn in_v6(addr: u128, net: u128, prefix: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
    addr & mask == net & mask
}

/// The name of the blocked range holding `addr`, if any: the blocks of IANA's IPv4 and IPv6
/// Special-Purpose Address Registries that are not globally reachable, multicast, and IPv6
/// outside global unicast. Every IPv6 form embedding an IPv4 address (IPv4-mapped and
/// -translated, -compatible, NAT64 of either prefix, 6to4, Teredo) is judged by that address
/// first, and named by its range when that one is blocked; the mapped form, the NAT64
/// well-known prefix, 6to4 and Teredo are then allowed, the others are blocked as what they
/// are (they are not routed on the internet).
///
/// # Examples
///
/// ```
/// use chatmark_api::is_blocked_ip;
/// assert_eq!(is_blocked_ip("100.64.0.1".parse().unwrap()), Some("shared address space (CGNAT)"));
/// assert_eq!(is_blocked_ip("::ffff:127.0.0.1".parse().unwrap()), Some("loopback"));
/// assert_eq!(is_blocked_ip("::ffff:0:127.0.0.1".parse().unwrap()), Some("loopback"));
/// assert_eq!(is_blocked_ip("2001:0:4136:e378:8000:63bf:3fff:fdd2".parse().unwrap()), Some("documentation"));
/// assert_eq!(is_blocked_ip("93.184.216.34".parse().unwrap()), None);
/// assert_eq!(is_blocked_ip("64:ff9b::93.184.216.34".parse().unwrap()), None);
/// ```
pub fn is_blocked_ip(addr: IpAddr) -> Option<&'static str> {
    match addr {
        IpAddr::V4(a) => {
            let a = u32::from(a);
            V4_SPECIAL
                .iter()
                .find(|&&(net, prefix, _)| in_v4(a, net, prefix))
                .and_then(|&(_, _, name)| name)
        }
        IpAddr::V6(a) => {
            let bits = u128::from(a);
            let v4 = |a: Ipv4Addr| is_blocked_ip(IpAddr::V4(a));
            match embedded_v4(bits) {
                Some(Embedding::Mapped(a) | Embedding::Nat64(a) | Embedding::SixToFour(a)) => v4(a),
                Some(Embedding::Teredo(server, client)) => v4(server).or_else(|| v4(client)),
                Some(Embedding::Translated(a)) => v4(a).or(Some("IPv4-translated")),
                Some(Embedding::Compatible(a)) => v4(a).or(Some("IPv4-compatible (deprecated)")),
                Some(Embedding::Nat64Local(a)) => v4(a).or(Some("local-use NAT64")),
                None => V6_SPECIAL
                    .iter()
                    .find(|&&(net, prefix, _)| in_v6(bits, net, prefix))
                    .and_then(|&(_, _, name)| name),
            }
        }
    }
}

/// Whether `addr` is this host's loopback: `127.0.0.0/8`, `::1`, or the IPv4-mapped form of
/// a `127.0.0.0/8` address. NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) forms that embed
/// `127.x` are routed off-host, so they are not loopback even though [`is_blocked_ip`]
/// names their embedded address's range.
fn is_loopback(addr: IpAddr) -> bool {
    match addr {
        IpAddr::V4(a) => a.is_loopback(),
        IpAddr::V6(a) => a.is_loopback() || a.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
    }
}

fn is_localhost_name(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

/// Decides whether probing `url` at the `resolved` addresses of its host is blocked; a
/// literal host is checked itself, and every resolved address must be allowed.
///
/// # Examples
///
/// ```
/// use chatmark_api::check_target;
/// assert!(check_target("https://example.com/hook", &["93.184.216.34".parse().unwrap()]).is_ok());
/// assert!(check_target("https://example.com/hook", &["127.0.0.1".parse().unwrap()]).is_err());
/// assert!(check_target("http://app.localhost/", &[]).is_err());
/// ```
pub fn check_target(url: &str, resolved: &[IpAddr]) -> Result<WebhookUrl, BlockReason> {
    check_target_with(url, resolved, false)
}

/// [`check_target`], optionally letting loopback targets through (`localhost` names and
/// loopback addresses only: for tests and local development, never in production).
///
/// # Examples
///
/// ```
/// use chatmark_api::blocked::check_target_with;
/// assert!(check_target_with("http://127.0.0.1:9/", &[], true).is_ok());
/// assert!(check_target_with("http://10.0.0.1/", &[], true).is_err());
/// ```
pub fn check_target_with(
    url: &str,
    resolved: &[IpAddr],
    allow_loopback: bool,
) -> Result<WebhookUrl, BlockReason> {
    let parsed = WebhookUrl::parse(url)?;
    let literal = match &parsed.host {
        Host::Name(n) if is_localhost_name(n) && !allow_loopback => {
            return Err(BlockReason::LocalhostName(n.clone()))
        }
        Host::Name(_) => None,
        Host::Ip(a) => Some(*a),
    };
    for &addr in literal.iter().chain(resolved) {
        if let Some(range) = is_blocked_ip(addr) {
            if !(allow_loopback && is_loopback(addr)) {
                return Err(BlockReason::Address { addr, range });
            }
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_spellings() {
        let cases = [
            ("2130706433", Some("127.0.0.1")),
            ("0x7f000001", Some("127.0.0.1")),
            ("0177.0.0.1", Some("127.0.0.1")),
            ("127.1", Some("127.0.0.1")),
            ("127.0.1", Some("127.0.0.1")),
            ("0x", Some("0.0.0.0")),
            ("1.2.3.256", None),
            ("256.1.1.1", None),
            ("1.2.3.4.5", None),
            ("09.1.1.1", None),
            ("127.+0.0.1", None),
            ("0x+1", None),
        ];
        for (text, want) in cases {
            let labels: Vec<&str> = text.split('.').collect();
            assert_eq!(
                parse_ipv4(&labels),
                want.map(|w| w.parse().unwrap()),
                "{text}"
            );
        }
    }

    #[test]
    fn url_shapes() {
        let u = WebhookUrl::parse("https://h.example:8443").unwrap();
        assert_eq!((u.https, u.port, u.target.as_str()), (true, 8443, "/"));
        let u = WebhookUrl::parse("http://h?q").unwrap();
        assert_eq!(u.target, "/?q");
        let u = WebhookUrl::parse("http://h/é").unwrap();
        assert_eq!(u.target, "/%C3%A9");
        for bad in [
            "http:/h/",
            "http://h:0/",
            "http://h:65536/",
            "http://h:+80/",
            "http://[::1/",
            "http://[::1]x/",
            "http://a..b/",
            "http://h h/",
            "http://exa%6dple.com/",
            "http://bücher.example/",
            "//h/",
            "http://[fe80::1%25eth0]/",
        ] {
            assert!(WebhookUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
