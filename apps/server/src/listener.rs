//! The TCP listener the shop serves on: poem's, with `TCP_NODELAY` on every connection and
//! deadlines for slow clients ([`Guarded`]).
//!
//! hyper writes a response's head and a streamed body (static files) in separate
//! small writes. With Nagle's algorithm on, the second write waits for the
//! client's delayed ACK of the first (~40 ms on Linux) on every keep-alive
//! request; poem's `TcpListener` offers no hook to turn it off, so this acceptor
//! wraps tokio's listener and sets the option on each accepted socket.

use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use poem::http::uri::Scheme;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::time::{Instant, Sleep};

/// How long a connection may take over a request head, and wait idle between requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// From a connection's opening, or from the first byte of the next request on a kept-alive
    /// connection, to the end of the request head.
    pub head: Duration,
    /// From the end of a response to the first byte of the next request.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self { head: Duration::from_secs(10), idle: Duration::from_secs(60) }
    }
}

/// Accepts TCP connections with `TCP_NODELAY` set, each [`Guarded`] by the deadlines.
#[derive(Debug)]
pub struct NoDelayAcceptor {
    local_addr: LocalAddr,
    listener: TcpListener,
    timeouts: Timeouts,
}

impl NoDelayAcceptor {
    /// Binds to `addr` (port 0 picks a free port).
    ///
    /// # Errors
    /// When the address cannot be bound.
    pub async fn bind(addr: impl ToSocketAddrs) -> io::Result<Self> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = LocalAddr(listener.local_addr()?.into());
        Ok(Self { local_addr, listener, timeouts: Timeouts::default() })
    }

    /// The deadlines of the connections accepted from now on.
    #[must_use]
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }
}

impl Acceptor for NoDelayAcceptor {
    type Io = Guarded<TcpStream>;

    fn local_addr(&self) -> Vec<LocalAddr> {
        vec![self.local_addr.clone()]
    }

    async fn accept(&mut self) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, Scheme)> {
        let (stream, remote) = self.listener.accept().await?;
        if let Err(e) = stream.set_nodelay(true) {
            // The connection still works, only slower; not worth refusing it.
            tracing::warn!(error = %e, "could not set TCP_NODELAY on a connection");
        }
        let stream = Guarded::new(stream, self.timeouts);
        Ok((stream, self.local_addr.clone(), RemoteAddr(remote.into()), Scheme::HTTP))
    }
}

/// Why `MARQUE_ENV=dev` may not listen on `addr`: the development adapters (the outbox with every
/// code, the sign-in stand-in, payments without money) must never be reachable beyond this machine,
/// so every address `addr` names must be a loopback one (`127.0.0.0/8`, `::1`, `localhost`).
///
/// # Errors
/// A message naming the address when it is not loopback or does not resolve.
pub async fn dev_listens_on_loopback(addr: &str) -> Result<(), String> {
    let resolved: Vec<std::net::SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| format!("MARQUE_ADDR `{addr}` does not name an address to listen on: {e}"))?
        .collect();
    let beyond = resolved.iter().find(|a| !a.ip().is_loopback());
    match beyond.or_else(|| resolved.is_empty().then_some(&UNSPECIFIED)) {
        None => Ok(()),
        Some(a) => Err(format!(
            "MARQUE_ENV=dev listens only on a loopback address (127.0.0.1, ::1, localhost), but MARQUE_ADDR is `{addr}` \
             ({ip}): the development outbox, sign-in stand-in and payment sandbox would be reachable from other machines. \
             Use MARQUE_ADDR=127.0.0.1:<port>, or MARQUE_ENV=prod with its settings",
            ip = a.ip()
        )),
    }
}

const UNSPECIFIED: std::net::SocketAddr =
    std::net::SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), 0);

/// Where a guarded connection is in its request/response cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading a request head: it must end (`\r\n\r\n`) before the deadline.
    Head,
    /// A whole head was read: the body (its deadline is the HTTP layer's, [`BodyDeadline`]) and the answer.
    Busy,
    /// An answer was written: the next request must start before the deadline.
    Idle,
    /// HTTP/2 (prior knowledge): frames, not heads; only poem's own handling applies.
    Http2,
}

/// A connection that is closed (its reads fail with `TimedOut`, which ends it) when it does not
/// finish a request head within [`Timeouts::head`], or stays idle between requests longer than
/// [`Timeouts::idle`]. hyper, under poem, has no header read timeout of its own in use.
#[derive(Debug)]
pub struct Guarded<T> {
    inner: T,
    timeouts: Timeouts,
    phase: Phase,
    /// The last four bytes read, to find the end of a head across reads.
    tail: u32,
    /// Whether the connection's first bytes were looked at (for the HTTP/2 preface).
    looked: bool,
    deadline: Pin<Box<Sleep>>,
    /// The task waiting to read, woken when a write starts a deadline it must watch.
    reader: Option<std::task::Waker>,
}

impl<T> Guarded<T> {
    #[must_use]
    pub fn new(inner: T, timeouts: Timeouts) -> Self {
        let deadline = Box::pin(tokio::time::sleep(timeouts.head));
        Self { inner, timeouts, phase: Phase::Head, tail: 0, looked: false, deadline, reader: None }
    }

    /// The connection itself.
    pub fn get_ref(&self) -> &T {
        &self.inner
    }

    fn enter(&mut self, phase: Phase, within: Duration) {
        self.phase = phase;
        self.tail = 0;
        self.deadline.as_mut().reset(Instant::now() + within);
    }

    /// Follows the bytes just read.
    fn saw(&mut self, bytes: &[u8]) {
        if !self.looked {
            self.looked = true;
            if bytes.starts_with(b"PRI * HTTP/2.0") {
                self.phase = Phase::Http2;
            }
        }
        for &b in bytes {
            if self.phase == Phase::Idle {
                self.enter(Phase::Head, self.timeouts.head);
            }
            if self.phase != Phase::Head {
                return;
            }
            self.tail = (self.tail << 8) | u32::from(b);
            if self.tail == u32::from_be_bytes(*b"\r\n\r\n") {
                self.phase = Phase::Busy;
            }
        }
    }

    /// Follows an answer's bytes written: once the answer is on its way the connection waits
    /// for the next request (an interim `100 Continue` is not an answer).
    fn wrote(&mut self, first: &[u8]) {
        if self.phase == Phase::Busy && !first.starts_with(b"HTTP/1.1 1") {
            self.enter(Phase::Idle, self.timeouts.idle);
            // A read already waiting polls the new deadline only once woken.
            if let Some(reader) = self.reader.take() {
                reader.wake();
            }
        } else if self.phase == Phase::Idle {
            self.deadline.as_mut().reset(Instant::now() + self.timeouts.idle);
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.saw(&buf.filled()[before..]);
                Poll::Ready(Ok(()))
            }
            Poll::Pending if matches!(this.phase, Phase::Head | Phase::Idle) => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    let what = if this.phase == Phase::Head { "request head" } else { "next request" };
                    tracing::debug!(waited_for = what, "closing a connection past its deadline");
                    Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, format!("no {what} in time"))))
                }
                Poll::Pending => Poll::Pending,
            },
            Poll::Pending => {
                this.reader = Some(cx.waker().clone());
                Poll::Pending
            }
            other => other,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.inner).poll_write(cx, buf);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            this.wrote(buf);
        }
        written
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) {
            let first = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| &b[..]);
            this.wrote(first);
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Reads every request body within a deadline before the route sees it: past it the answer is
/// 408 with the JSON error shape, and the connection is closed. Bodies above their path's limit
/// are left to [`marque_api::body_limits::limit_bodies`] (413), which runs next.
#[derive(Debug, Clone, Copy)]
pub struct BodyDeadline(pub Duration);

impl<E: poem::Endpoint> poem::Middleware<E> for BodyDeadline {
    type Output = BodyDeadlineEndpoint<E>;

    fn transform(&self, ep: E) -> Self::Output {
        BodyDeadlineEndpoint { inner: ep, within: self.0 }
    }
}

#[derive(Debug)]
pub struct BodyDeadlineEndpoint<E> {
    inner: E,
    within: Duration,
}

impl<E: poem::Endpoint> poem::Endpoint for BodyDeadlineEndpoint<E> {
    type Output = poem::Response;

    async fn call(&self, mut req: poem::Request) -> poem::Result<Self::Output> {
        use poem::IntoResponse as _;
        let limit = marque_api::body_limits::body_limit(req.uri().path());
        let declared = req.header("content-length").and_then(|l| l.trim().parse::<u64>().ok());
        let chunked = req.headers().contains_key("transfer-encoding");
        let has_body = match declared {
            Some(0) => false,
            // Past its limit it is refused before a byte is read.
            Some(length) => length <= limit as u64,
            None => {
                chunked
                    || (req.version() >= poem::http::Version::HTTP_2
                        && !matches!(*req.method(), poem::http::Method::GET | poem::http::Method::HEAD))
            }
        };
        if has_body && limit > SPOOL_ABOVE {
            match tokio::time::timeout(self.within, spool(req.take_body(), limit)).await {
                Ok(Ok(Spooled::Within(file, length))) => {
                    // What arrived is all there is: a length now, so nothing after reads it again.
                    req.headers_mut().remove(poem::http::header::TRANSFER_ENCODING);
                    req.headers_mut().insert(poem::http::header::CONTENT_LENGTH, length.into());
                    req.set_body(read_back(file));
                }
                Ok(Ok(Spooled::TooLarge)) => return Ok(marque_api::body_limits::too_large_for(req.uri().path())),
                Ok(Err(e)) => return Err(poem::Error::from_string(e.to_string(), poem::http::StatusCode::BAD_REQUEST)),
                Err(_) => return Ok(body_too_slow()),
            }
        } else if has_body {
            // One byte past the limit tells `limit_bodies` the body is too large.
            match tokio::time::timeout(self.within, req.take_body().into_bytes_limit(limit + 1)).await {
                Ok(Ok(bytes)) => req.set_body(poem::Body::from_bytes(bytes)),
                Ok(Err(poem::error::ReadBodyError::PayloadTooLarge)) => {
                    return Ok(marque_api::body_limits::too_large_for(req.uri().path()));
                }
                Ok(Err(e)) => return Err(poem::Error::from_string(e.to_string(), poem::http::StatusCode::BAD_REQUEST)),
                Err(_) => return Ok(body_too_slow()),
            }
        }
        self.inner.call(req).await.map(|r| r.into_response())
    }
}

/// Bodies of paths that may send more than this (a catalog import's zip of photographs: up to 1 GB;
/// product and return photographs) are copied as they arrive to an unnamed temporary file, within
/// the same deadline and limit, rather than held in memory; the route then reads the file.
const SPOOL_ABOVE: usize = 16 * 1024 * 1024;

/// A body copied to a temporary file.
enum Spooled {
    /// The whole body, at its start, and its length.
    Within(std::fs::File, u64),
    /// It went past the limit (reading stopped one byte after it).
    TooLarge,
}

/// Copies `body` to an unnamed temporary file (gone when the file is dropped), at most `limit`
/// bytes and one more.
async fn spool(body: poem::Body, limit: usize) -> io::Result<Spooled> {
    use std::io::Seek as _;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let file = tokio::task::spawn_blocking(tempfile::tempfile).await.map_err(io::Error::other)??;
    let mut file = tokio::fs::File::from_std(file);
    let mut reader = body.into_async_read().take(limit as u64 + 1);
    let length = tokio::io::copy(&mut reader, &mut file).await?;
    if length > limit as u64 {
        return Ok(Spooled::TooLarge);
    }
    file.flush().await?;
    // Every write done (`into_std` waits for the one in flight), then read from the start.
    let mut file = file.into_std().await;
    file.seek(io::SeekFrom::Start(0))?;
    Ok(Spooled::Within(file, length))
}

/// A spooled body as the route reads it: the file read on a blocking thread a chunk at a time, a
/// few chunks ahead of the reader at most; the reading stops when the body is dropped.
fn read_back(mut file: std::fs::File) -> poem::Body {
    const CHUNK: usize = 64 * 1024;
    let (chunks, received) = tokio::sync::mpsc::channel::<io::Result<Vec<u8>>>(4);
    tokio::task::spawn_blocking(move || {
        use std::io::Read as _;
        loop {
            let mut chunk = vec![0u8; CHUNK];
            let sent = match file.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    chunk.truncate(n);
                    chunks.blocking_send(Ok(chunk))
                }
                Err(e) => {
                    let _ = chunks.blocking_send(Err(e));
                    break;
                }
            };
            if sent.is_err() {
                break; // the body was dropped
            }
        }
    });
    poem::Body::from_bytes_stream(futures::stream::unfold(received, |mut received| async move {
        received.recv().await.map(|chunk| (chunk, received))
    }))
}

/// 408: the body did not arrive in time (`request.too_slow`).
fn body_too_slow() -> poem::Response {
    let body = serde_json::json!({
        "status": "failed",
        "message": "The request took too long to arrive. Please try again.",
        "code": "request.too_slow",
    });
    poem::Response::builder()
        .status(poem::http::StatusCode::REQUEST_TIMEOUT)
        .content_type("application/json; charset=utf-8")
        .header(poem::http::header::CONNECTION, "close")
        .body(body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spooled body reads back whole, whatever its size; one past the limit is refused.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_spooled_body_reads_back_whole_and_one_past_the_limit_is_refused() {
        for size in [0usize, 1, 634, 2162, 65_536, 1_007_732, 3 << 20] {
            for round in 0..20 {
                let sent: Vec<u8> = (0..size).map(|i| u8::try_from((i * 7 + round) % 251).unwrap_or(0)).collect();
                let Ok(Spooled::Within(file, length)) = spool(poem::Body::from_vec(sent.clone()), 4 << 20).await else {
                    panic!("{size} bytes are within the limit");
                };
                assert_eq!(length, size as u64);
                let back = read_back(file).into_vec().await.expect("reads back");
                assert!(back == sent, "{size} bytes, round {round}: {} read back", back.len());
            }
        }
        let over = spool(poem::Body::from_vec(vec![0; 1001]), 1000).await.expect("spools");
        assert!(matches!(over, Spooled::TooLarge));
    }

    #[tokio::test]
    async fn accepted_connections_have_nodelay_set() {
        let mut acceptor = NoDelayAcceptor::bind("127.0.0.1:0").await.expect("binds");
        let addr = *acceptor.local_addr()[0].as_socket_addr().expect("a socket address");
        let client = tokio::spawn(TcpStream::connect(addr));
        let (stream, _, remote, scheme) = acceptor.accept().await.expect("accepts");
        assert!(stream.get_ref().nodelay().expect("readable option"), "TCP_NODELAY is set");
        assert_eq!(scheme, Scheme::HTTP);
        let client = client.await.expect("joins").expect("connects");
        assert_eq!(remote.as_socket_addr().copied(), client.local_addr().ok());
    }

    #[tokio::test]
    async fn dev_listens_only_on_loopback() {
        for addr in ["127.0.0.1:8080", "127.0.0.1:0", "[::1]:8080", "localhost:8080", "127.1.2.3:80"] {
            assert_eq!(dev_listens_on_loopback(addr).await, Ok(()), "{addr}");
        }
        for addr in ["0.0.0.0:8080", "[::]:8080", "192.168.1.20:8080", "10.0.0.1:0"] {
            let refusal = dev_listens_on_loopback(addr).await.expect_err(addr);
            assert!(
                refusal.contains("MARQUE_ENV=dev listens only on a loopback address") && refusal.contains(addr),
                "{refusal}"
            );
        }
        assert!(dev_listens_on_loopback("no port").await.is_err());
    }

    #[test]
    fn a_head_ends_the_head_phase_and_an_answer_starts_the_idle_one() {
        tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime").block_on(async {
            let mut g = Guarded::new((), Timeouts::default());
            g.saw(b"GET / HTTP/1.1\r\nHost: x\r");
            assert_eq!(g.phase, Phase::Head);
            g.saw(b"\n\r\n");
            assert_eq!(g.phase, Phase::Busy, "the end of a head across reads");
            g.wrote(b"HTTP/1.1 100 Continue\r\n\r\n");
            assert_eq!(g.phase, Phase::Busy, "an interim answer");
            g.wrote(b"HTTP/1.1 200 OK\r\n");
            assert_eq!(g.phase, Phase::Idle);
            g.saw(b"G");
            assert_eq!(g.phase, Phase::Head, "the next request's first byte");
            let mut h2 = Guarded::new((), Timeouts::default());
            h2.saw(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
            assert_eq!(h2.phase, Phase::Http2);
        });
    }
}
