//! The example server's connections: an accept loop with a cap on concurrent connections,
//! and per connection an idle keep-alive timeout and a header read timeout enforced around
//! hyper's HTTP/1.1 parser (the body read timeout is the router's, see `app::guard`).
//!
//! A connection is in one of three phases. *Idle*: no byte of the next request has arrived;
//! it is closed `idle_timeout` after it became idle (after it was accepted, or after the
//! previous answer was handed to hyper). *Head*: the first byte arrived; the request head
//! must be complete within `header_timeout` of that byte, else the connection answers 408 in
//! the route's envelope and closes. *Busy*: the router has the request; the router bounds
//! the body read itself. Requests hyper cannot parse (a head over [`MAX_HEAD`] bytes, a
//! malformed request line, also one pipelined behind a valid request) get hyper's automatic
//! answer, which is rewritten here into the route's JSON envelope; so is the 503 of a
//! connection over the cap, whose request line is peeked for its route, and an HTTP/2
//! client with prior knowledge (its preface), which hyper drops without an answer, gets 505.
//! A client may half-close its side after a complete request: the answer still goes out.
//! A request head that arrived pipelined behind the request before it is a head too: the
//! layer follows the requests' framing in the bytes it reads ([`Framing`]), so that when the
//! router answers with more bytes read than that request held, the header timeout runs.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;

use crate::app::Config;
use crate::ops;

/// The largest request head (request line and headers) hyper buffers, in bytes; a longer
/// one answers 431 in the envelope.
pub const MAX_HEAD: usize = 16 * 1024;

/// Serves `router` on `listener` until `shutdown` resolves (or accepting fails for good): at
/// most `config.max_connections` connections at once (others answer 503 in the envelope and
/// are closed), each under the idle and header timeouts of `config`. Then it stops
/// accepting, lets every connection finish the request it is serving (idle keep-alive
/// connections close at once, busy ones after their answer) for up to
/// `config.shutdown_timeout`, and returns; connections still open then are dropped.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let (drain, draining) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) if is_transient(&e) => {
                // Out of file descriptors or the like: let connections finish, then retry.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tokio::spawn(refuse(stream, config.max_connections));
            continue;
        };
        let router = router.clone();
        let config = config.clone();
        let draining = draining.clone();
        tokio::spawn(async move {
            serve_connection(stream, router, &config, draining).await;
            drop(permit);
        });
    }
    drop(listener);
    let open = config.max_connections - permits.available_permits();
    tracing::info!(
        open,
        "shutdown: no longer accepting; finishing the requests in flight"
    );
    let _ = drain.send(true);
    // every connection holds a permit until it is done
    let all = u32::try_from(config.max_connections).unwrap_or(u32::MAX);
    let done = tokio::time::timeout(config.shutdown_timeout, permits.acquire_many(all)).await;
    if done.is_err() {
        let open = config.max_connections - permits.available_permits();
        tracing::warn!(
            open,
            deadline_ms = u64::try_from(config.shutdown_timeout.as_millis()).unwrap_or(u64::MAX),
            "shutdown: connections still busy at the deadline are dropped"
        );
    }
    Ok(())
}

fn is_transient(e: &io::Error) -> bool {
    !matches!(
        e.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::PermissionDenied
    )
}

/// Answers 503 to a connection over the cap in its route's envelope: the request line is
/// peeked (briefly, without consuming it) to tell the quota route from the bot routes.
async fn refuse(mut stream: TcpStream, max: usize) {
    let mut start = [0u8; 64];
    let seen = tokio::time::timeout(Duration::from_millis(200), stream.peek(&mut start))
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or(0);
    let answer = early_answer(
        503,
        start.get(..seen).unwrap_or_default(),
        &format!("the server is serving its maximum of {max} connections; try again shortly"),
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(&answer).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Head,
    Busy,
}

/// A connection's phase and the deadline of that phase.
struct Clock {
    state: Mutex<(Phase, Instant)>,
    /// The router answered and hyper has not flushed that answer yet (a pipelined request's
    /// head may arrive meanwhile: those writes are still the router's answer).
    owed: AtomicBool,
    changed: Notify,
    header_timeout: Duration,
    idle_timeout: Duration,
    /// The first bytes of the current request head, to tell bot routes from the quota route.
    head_start: Mutex<Vec<u8>>,
    /// Where requests begin and end in the bytes read, to see a pipelined head (below).
    framing: Mutex<Framing>,
}

/// The request framing this layer can see in the bytes it reads: how many were read, where
/// each request head ended (`\r\n\r\n`; one in a body's JSON whitespace is recorded too,
/// but it lies before that request's end, so it is never taken for the next head's end),
/// and where the request being served began. When the router answers a request whose end is known
/// (its head's end plus its `Content-Length`) and more bytes than that were read, the next
/// request's head has begun (pipelined): its clock is the header timeout, not the idle one.
#[derive(Default)]
struct Framing {
    read: u64,
    /// The last three bytes read, to find a `\r\n\r\n` split across reads.
    tail: u32,
    /// Offsets just past recent head ends, oldest first (a few: pipelining is shallow).
    head_ends: std::collections::VecDeque<u64>,
    /// Where the request being served began.
    request_start: u64,
}

impl Framing {
    fn on_read(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.read += 1;
            self.tail = (self.tail << 8) | u32::from(b);
            if self.tail == u32::from_be_bytes(*b"\r\n\r\n") {
                if self.head_ends.len() == 16 {
                    self.head_ends.pop_front();
                }
                self.head_ends.push_back(self.read);
            }
        }
    }

    /// The request just served had a body of `body` bytes (`None`: unknown, chunked): whether
    /// bytes of the next request were read already. The next request begins where it ended.
    fn next_begun(&mut self, body: Option<u64>) -> bool {
        let start = self.request_start;
        let head_end = self.head_ends.iter().copied().find(|&e| e > start);
        match head_end.zip(body).map(|(head_end, body)| head_end + body) {
            Some(end) => {
                self.request_start = end;
                self.read > end
            }
            // framing unknown (a chunked body): take the next request to begin after what
            // was read, so that a later one is framed right (this one is not bounded)
            None => {
                self.request_start = self.read;
                false
            }
        }
    }
}

impl Clock {
    fn set(&self, phase: Phase, timeout: Duration) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) =
            (phase, Instant::now() + timeout);
        self.changed.notify_one();
    }

    fn phase(&self) -> Phase {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).0
    }

    /// Bytes arrived: an idle connection starts its header clock.
    fn on_bytes(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.0 != Phase::Idle {
            return false;
        }
        *state = (Phase::Head, Instant::now() + self.header_timeout);
        drop(state);
        self.changed.notify_one();
        true
    }

    /// Returns when the current phase's deadline has passed (never while busy).
    async fn expired(&self) {
        loop {
            let (phase, deadline) = *self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if phase != Phase::Busy && Instant::now() >= deadline {
                return;
            }
            if phase == Phase::Busy {
                self.changed.notified().await;
            } else {
                tokio::select! {
                    () = tokio::time::sleep_until(deadline) => {}
                    () = self.changed.notified() => {}
                }
            }
        }
    }
}

async fn serve_connection(
    stream: TcpStream,
    router: Router,
    config: &Config,
    mut draining: tokio::sync::watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let clock = Arc::new(Clock {
        state: Mutex::new((Phase::Idle, Instant::now() + config.idle_timeout)),
        owed: AtomicBool::new(false),
        changed: Notify::new(),
        header_timeout: config.header_timeout,
        idle_timeout: config.idle_timeout,
        head_start: Mutex::new(Vec::new()),
        framing: Mutex::new(Framing::default()),
    });
    // A second handle on the socket, to answer 408 once hyper's side is dropped.
    let spare = stream
        .into_std()
        .and_then(|s| Ok((s.try_clone()?, s)))
        .and_then(|(spare, s)| Ok((spare, TcpStream::from_std(s)?)));
    let (spare, stream) = match spare {
        Ok(pair) => pair,
        Err(_) => return,
    };
    let io = Timed {
        inner: stream,
        clock: Arc::clone(&clock),
        swallowed: Vec::new(),
        out: Vec::new(),
    };
    let service = Tracked {
        inner: TowerToHyperService::new(router),
        clock: Arc::clone(&clock),
    };
    let connection = http1::Builder::new()
        .max_buf_size(MAX_HEAD)
        .keep_alive(true)
        // a client may shut down its side after a complete request and wait for the answer
        .half_close(true)
        .serve_connection(TokioIo::new(io), service);
    let mut connection = std::pin::pin!(connection);
    let mut asked_to_finish = false;
    let timed_out = loop {
        tokio::select! {
            _ = connection.as_mut() => break false,
            // a head too slow, or an idle connection
            () = clock.expired() => break clock.phase() == Phase::Head,
            // the server shuts down: answer the request being served, then close
            _ = draining.changed(), if !asked_to_finish => {
                asked_to_finish = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    };
    let head_start = clock
        .head_start
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    // A request head that did not complete in time answers 408 in its route's envelope
    // before the close; an HTTP/2 client with prior knowledge, which hyper drops without a
    // word, answers 505; an idle connection just closes.
    let answer = if timed_out {
        early_answer(
            408,
            &head_start,
            &format!(
                "the request head did not arrive within {} ms",
                clock.header_timeout.as_millis()
            ),
        )
    } else if head_start.starts_with(H2_PREFACE) {
        h2_answer(&head_start)
    } else {
        return;
    };
    let _ = tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut spare = spare;
        let _ = spare.set_nonblocking(false);
        let _ = spare.set_write_timeout(Some(Duration::from_secs(1)));
        let _ = spare.write_all(&answer);
        let _ = spare.shutdown(std::net::Shutdown::Both);
    })
    .await;
}

/// The start of the HTTP/2 connection preface (RFC 9113 section 3.4), which HTTP/1.1 reads as
/// a request line of version `HTTP/2.0`: hyper drops the connection when it reads the whole
/// line, and answers 400 when it sees the version before (the preface split across reads).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2";

/// The answer to an HTTP/2 client with prior knowledge, whose first bytes are `start`.
fn h2_answer(start: &[u8]) -> Vec<u8> {
    early_answer(
        505,
        start,
        "HTTP/2 is not served (h2c prior knowledge): send the request over HTTP/1.1",
    )
}

/// Whether the start of a request (its request line) targets the quota API, whose answers
/// are `{data, error, message}`.
fn targets_quota(start: &[u8]) -> bool {
    String::from_utf8_lossy(start)
        .split(' ')
        .nth(1)
        .is_some_and(|target| target.starts_with("/v3.0/"))
}

/// The router as a hyper service that marks the connection busy while it runs.
struct Tracked {
    inner: TowerToHyperService<Router>,
    clock: Arc<Clock>,
}

impl Service<Request<Incoming>> for Tracked {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        self.clock.set(Phase::Busy, Duration::ZERO);
        // the body's length on the wire, when the head says it (not for chunked bodies)
        let headers = req.headers();
        let body = if headers.contains_key(axum::http::header::TRANSFER_ENCODING) {
            None
        } else {
            headers
                .get(axum::http::header::CONTENT_LENGTH)
                .map_or(Some(0), |v| {
                    v.to_str().ok().and_then(|v| v.trim().parse().ok())
                })
        };
        let answer = self.inner.call(req);
        let clock = Arc::clone(&self.clock);
        Box::pin(async move {
            let answer = answer.await;
            clock.owed.store(true, Ordering::SeqCst);
            let next_begun = clock
                .framing
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .next_begun(body);
            // a next head already read (pipelined) is a head: the header timeout bounds it
            if next_begun {
                clock.set(Phase::Head, clock.header_timeout);
            } else {
                clock.set(Phase::Idle, clock.idle_timeout);
            }
            answer
        })
    }
}

/// The connection's socket as hyper sees it: reads start the header clock, and what hyper
/// writes while no request reached the router (its automatic 400/414/431 answers) is
/// replaced by the route's JSON envelope.
struct Timed {
    inner: TcpStream,
    clock: Arc<Clock>,
    /// What hyper wrote of its own answer.
    swallowed: Vec<u8>,
    /// The envelope answer still to send in its place.
    out: Vec<u8>,
}

impl Timed {
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.out.is_empty() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.out) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.out.drain(..n.min(self.out.len()));
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Timed {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let got = buf.filled().get(before..).unwrap_or_default();
            if !got.is_empty() {
                this.clock
                    .framing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .on_read(got);
                let mut head_start = this
                    .clock
                    .head_start
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                if this.clock.on_bytes() {
                    head_start.clear();
                }
                let room = 64usize.saturating_sub(head_start.len());
                head_start.extend_from_slice(got.get(..room.min(got.len())).unwrap_or_default());
            }
        }
        polled
    }
}

impl AsyncWrite for Timed {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        // hyper's own answer: a status line written while the router runs no request (so
        // not a 100 Continue) and owes no answer still being flushed. The next request may
        // have arrived with the previous one (pipelined), so the phase may still be idle.
        let hyper_answer = !this.swallowed.is_empty()
            || (this.clock.phase() != Phase::Busy
                && !this.clock.owed.load(Ordering::SeqCst)
                && buf.starts_with(b"HTTP/"));
        if !hyper_answer {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        }
        // hyper answers a request it could not parse: keep its status, send the envelope.
        if this.out.is_empty() && this.swallowed.len() < 4096 {
            this.swallowed.extend_from_slice(buf);
            let text = String::from_utf8_lossy(&this.swallowed);
            if text.contains("\r\n\r\n") || this.swallowed.len() >= 4096 {
                let status = text
                    .split(' ')
                    .nth(1)
                    .and_then(|c| c.parse::<u16>().ok())
                    .unwrap_or(400);
                let reason = axum::http::StatusCode::from_u16(status)
                    .ok()
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or("Bad Request");
                let message = match status {
                    431 => format!("the request head is longer than {MAX_HEAD} bytes"),
                    _ => format!("the request could not be read as HTTP/1.1 ({reason})"),
                };
                let start = this
                    .clock
                    .head_start
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                this.out = if start.starts_with(H2_PREFACE) {
                    h2_answer(&start)
                } else {
                    early_answer(status, &start, &message)
                };
            }
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => {
                let flushed = Pin::new(&mut this.inner).poll_flush(cx);
                if let Poll::Ready(Ok(())) = flushed {
                    // hyper flushes after writing all it buffered: the answer is out.
                    this.clock.owed.store(false, Ordering::SeqCst);
                }
                flushed
            }
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

/// An answer given before a request reached the router, for the request whose first bytes
/// are `start`: logged as the router's answers are, with a request id (in its header too).
fn early_answer(status: u16, start: &[u8], message: &str) -> Vec<u8> {
    let id = ops::RequestId::next();
    let method = match start.split(|&b| b == b' ').next() {
        Some(b"POST") => "POST",
        Some(b"GET") => "GET",
        Some(b"HEAD") => "HEAD",
        _ => "other",
    };
    ops::log_request(
        &id,
        method,
        ops::route_of_line(start),
        status,
        std::time::Instant::now(),
        Some(message),
    );
    envelope_answer(status, targets_quota(start), message, &id)
}

/// A complete HTTP/1.1 answer carrying the route's JSON envelope, closing the connection.
fn envelope_answer(status: u16, quota: bool, message: &str, id: &ops::RequestId) -> Vec<u8> {
    let body = if quota {
        serde_json::to_string(&chatmark_api::QuotaResponse::failure(
            status.into(),
            message,
        ))
    } else {
        serde_json::to_string(&chatmark_api::Envelope::<()>::error(status, message))
    }
    .unwrap_or_default();
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{}: {id}\r\nconnection: close\r\n\r\n{body}",
        body.len(),
        ops::REQUEST_ID_HEADER
    )
    .into_bytes()
}
