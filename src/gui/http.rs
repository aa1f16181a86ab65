//! The HTTP/1.1 the browser board needs, over `std::net`: one thread a connection (at most
//! [`MAX_CONNECTIONS`] at once), a request's head capped at [`MAX_HEAD`] bytes and its body at the
//! caller's limit before any of it is kept, a request that has begun read whole within
//! [`REQUEST_TIME`], at most [`MAX_PER_PEER`] connections from one address, and a connection closed
//! (without a word) when it has been silent for [`IDLE_TIMEOUT`] between requests. Bodies come
//! with `Content-Length` or chunked, `Expect: 100-continue` is answered, connections are kept
//! alive between requests. A body announced larger than the limit
//! is answered 413 at once, without reading or allocating it.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most bytes of a request's line and headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 100;
/// The most connections served at once; more are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 64;
/// The most connections from one address at once (a browser opens about six to a server), so
/// that one client cannot take them all.
pub const MAX_PER_PEER: usize = 32;
/// How long a connection may be silent between requests before it is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request may take to arrive whole, from its first byte: a client that trickles
/// bytes cannot hold a connection for longer.
pub const REQUEST_TIME: Duration = Duration::from_secs(20);
/// How often the accepting loop looks at its stop flag when no client comes.
const POLL: Duration = Duration::from_millis(20);

/// A request, its body read whole.
#[derive(Debug)]
pub struct HttpRequest {
    /// `GET`, `POST`, ... as sent.
    pub method: String,
    /// The address as sent (path and query).
    pub target: String,
    /// The headers in order, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The value of header `name` (any case), if the request has it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An answer: status, headers (besides `Content-Length` and `Connection`) and body.
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header names and values (ASCII).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// Why a request could not be read: answered with this status and message, then the connection
/// is closed (what follows in it cannot be trusted to start a request).
#[derive(Debug)]
pub struct HttpError {
    /// The status code.
    pub status: u16,
    /// What was wrong.
    pub message: String,
}

fn fault(status: u16, message: impl Into<String>) -> HttpError {
    HttpError {
        status,
        message: message.into(),
    }
}

/// Accepts connections on `listener` until `stop` is raised, each served on a thread of its own by
/// `handle` (a failed request is answered by `refuse`), bodies up to `max_body` bytes.
pub fn serve(
    listener: &TcpListener,
    stop: &AtomicBool,
    max_body: usize,
    handle: Arc<dyn Fn(&HttpRequest) -> HttpResponse + Send + Sync>,
    refuse: fn(&HttpError) -> HttpResponse,
) {
    if listener.set_nonblocking(true).is_err() {
        return;
    }
    // Open connections by address; their sum is every connection open.
    let peers: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    while !stop.load(Ordering::Relaxed) {
        let (stream, peer) = match listener.accept() {
            Ok((s, a)) => (s, a.ip()),
            // No client yet (WouldBlock), or one that went before it was taken: look again soon.
            Err(_) => {
                std::thread::sleep(POLL);
                continue;
            }
        };
        // Accepted sockets may inherit the listener's non-blocking mode on some systems.
        if stream.set_nonblocking(false).is_err() {
            continue;
        }
        let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IDLE_TIMEOUT));
        let (all, from_peer) = peers.lock().map_or((0, 0), |p| {
            (
                p.values().sum::<usize>(),
                p.get(&peer).copied().unwrap_or(0),
            )
        });
        if all >= MAX_CONNECTIONS || from_peer >= MAX_PER_PEER {
            let busy = refuse(&fault(503, "too many connections; try again"));
            let _ = write_response(&mut &stream, &busy, false, false);
            continue;
        }
        count_peer(&peers, peer, true);
        let (handle, peers_here) = (handle.clone(), peers.clone());
        let spawned = std::thread::Builder::new()
            .name("http-connection".into())
            .spawn(move || {
                connection(stream, max_body, &*handle, refuse);
                count_peer(&peers_here, peer, false);
            });
        if spawned.is_err() {
            // The thread was not made: the stream went with the closure and is closed.
            count_peer(&peers, peer, false);
        }
    }
}

/// Counts a connection from `peer` in (`add`) or out.
fn count_peer(peers: &Mutex<HashMap<IpAddr, usize>>, peer: IpAddr, add: bool) {
    if let Ok(mut p) = peers.lock() {
        let n = p.entry(peer).or_insert(0);
        *n = if add { *n + 1 } else { n.saturating_sub(1) };
        if *n == 0 {
            p.remove(&peer);
        }
    }
}

/// Serves the requests of one connection until it closes, errs or asks to close.
fn connection(
    stream: TcpStream,
    max_body: usize,
    handle: &dyn Fn(&HttpRequest) -> HttpResponse,
    refuse: fn(&HttpError) -> HttpResponse,
) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(Timed {
        stream: read_half,
        deadline: None,
    });
    let mut writer = &stream;
    loop {
        // Between requests: silence for IDLE_TIMEOUT, or the client's close, ends the connection
        // without an answer (a request the client sends just then is not met by a stray 408).
        reader.get_mut().deadline = None;
        match reader.fill_buf() {
            Ok(b) if !b.is_empty() => {}
            _ => return,
        }
        reader.get_mut().deadline = Some(Instant::now() + REQUEST_TIME);
        match read_request(&mut reader, &mut writer, max_body) {
            Ok(Some((request, keep_alive))) => {
                let response = handle(&request);
                let head_only = request.method == "HEAD";
                if write_response(&mut writer, &response, head_only, keep_alive).is_err()
                    || !keep_alive
                {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                let _ = write_response(&mut writer, &refuse(&e), false, false);
                return;
            }
        }
    }
}

/// The read half of a connection, whose reads fail once `deadline` has passed (each read waits at
/// most until then, and at most [`IDLE_TIMEOUT`]).
struct Timed {
    stream: TcpStream,
    deadline: Option<Instant>,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let wait = match self.deadline {
            None => IDLE_TIMEOUT,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!("not sent whole within {} s", REQUEST_TIME.as_secs()),
                    ));
                }
                left.min(IDLE_TIMEOUT)
            }
        };
        self.stream.set_read_timeout(Some(wait))?;
        self.stream.read(buf)
    }
}

/// Reads one line of the head (without its line end), counting it against `budget`.
fn head_line(reader: &mut impl BufRead, budget: &mut usize) -> Result<Option<String>, HttpError> {
    let mut line = Vec::new();
    let read = reader
        .by_ref()
        .take(*budget as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| fault(408, format!("cannot read the request: {e}")))?;
    if read == 0 {
        return Ok(None);
    }
    if read > *budget || !line.ends_with(b"\n") {
        return Err(if read > *budget {
            fault(
                431,
                format!("the request's head is longer than {MAX_HEAD} bytes"),
            )
        } else {
            fault(400, "the request ends in the middle of a line")
        });
    }
    *budget -= read;
    line.pop();
    if line.ends_with(b"\r") {
        line.pop();
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| fault(400, "the request's head is not UTF-8 text"))
}

/// A request read (with whether the connection stays open after it), none, or why not.
type ReadResult = Result<Option<(HttpRequest, bool)>, HttpError>;

/// Reads a request and its body; `None` when the connection ends before one starts. The flag says
/// whether the connection stays open after the answer.
fn read_request(reader: &mut impl BufRead, writer: &mut impl Write, max_body: usize) -> ReadResult {
    let mut budget = MAX_HEAD;
    // Blank lines before a request are allowed (RFC 9112, 2.2).
    let line = loop {
        match head_line(reader, &mut budget)? {
            None => return Ok(None),
            Some(l) if l.is_empty() => continue,
            Some(l) => break l,
        }
    };
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(fault(
            400,
            "the request line is not 'METHOD TARGET HTTP/1.1'",
        ));
    };
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err(fault(505, format!("'{version}' is not HTTP/1.0 or 1.1"))),
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) || target.is_empty() {
        return Err(fault(
            400,
            "the request line is not 'METHOD TARGET HTTP/1.1'",
        ));
    }
    let mut headers = Vec::new();
    loop {
        let Some(line) = head_line(reader, &mut budget)? else {
            return Err(fault(400, "the request ends inside its headers"));
        };
        if line.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(fault(431, format!("more than {MAX_HEADERS} headers")));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(fault(400, "a header is not 'Name: value'"));
        };
        if name.is_empty() || name.contains(|c: char| c.is_whitespace()) {
            return Err(fault(400, "a header is not 'Name: value'"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let mut request = HttpRequest {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: Vec::new(),
    };
    // Headers that must be single: two of them would let two readers see two requests.
    for single in ["Host", "Content-Length", "Transfer-Encoding"] {
        let count = request
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(single))
            .count();
        if count > 1 {
            return Err(fault(400, format!("more than one {single} header")));
        }
    }
    let too_big = || fault(413, format!("the request is larger than {max_body} bytes"));
    let continue_first = request
        .header("Expect")
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
    if let Some(coding) = request.header("Transfer-Encoding") {
        if !coding.eq_ignore_ascii_case("chunked") {
            return Err(fault(
                501,
                format!("transfer coding '{coding}' is not supported"),
            ));
        }
        if request.header("Content-Length").is_some() {
            return Err(fault(400, "both Content-Length and Transfer-Encoding"));
        }
        if continue_first {
            go_on(writer)?;
        }
        request.body =
            read_chunked(reader, max_body).map_err(
                |e| {
                    if e.status == 413 {
                        too_big()
                    } else {
                        e
                    }
                },
            )?;
    } else if let Some(length) = request.header("Content-Length") {
        // Digits only (RFC 9110, 8.6): `+5` is not a length; more digits than a usize holds are
        // more than any limit.
        if length.is_empty() || !length.bytes().all(|b| b.is_ascii_digit()) {
            return Err(fault(400, "Content-Length is not a number"));
        }
        let length: usize = length.parse().unwrap_or(usize::MAX);
        if length > max_body {
            return Err(too_big());
        }
        if length > 0 && continue_first {
            go_on(writer)?;
        }
        let mut body = vec![0; length];
        reader
            .read_exact(&mut body)
            .map_err(|e| fault(408, format!("cannot read the request's body: {e}")))?;
        request.body = body;
    }
    let close = request
        .header("Connection")
        .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")));
    Ok(Some((request, http11 && !close)))
}

/// Tells a client that waits for it to send its body.
fn go_on(writer: &mut impl Write) -> Result<(), HttpError> {
    writer
        .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
        .and_then(|()| writer.flush())
        .map_err(|e| fault(400, format!("cannot answer the request: {e}")))
}

/// A chunked body, at most `max_body` bytes (413 beyond).
fn read_chunked(reader: &mut impl BufRead, max_body: usize) -> Result<Vec<u8>, HttpError> {
    let mut body = Vec::new();
    loop {
        let mut budget = 1024;
        let Some(line) = head_line(reader, &mut budget)? else {
            return Err(fault(400, "the body ends inside a chunk"));
        };
        let size = line.split(';').next().unwrap_or("").trim();
        if size.is_empty() || !size.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(fault(400, "a chunk's size is not a hex number"));
        }
        // Hex digits beyond a usize are more than any limit.
        let size = usize::from_str_radix(size, 16).unwrap_or(usize::MAX);
        if size == 0 {
            // Trailer lines, up to the empty one.
            let mut budget = MAX_HEAD;
            loop {
                match head_line(reader, &mut budget)? {
                    Some(l) if !l.is_empty() => continue,
                    _ => return Ok(body),
                }
            }
        }
        if size > max_body - body.len() {
            return Err(fault(413, "too large"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader
            .read_exact(&mut body[start..])
            .map_err(|e| fault(408, format!("cannot read the request's body: {e}")))?;
        let mut end = [0u8; 2];
        reader
            .read_exact(&mut end)
            .map_err(|e| fault(408, format!("cannot read the request's body: {e}")))?;
        if &end != b"\r\n" {
            return Err(fault(400, "a chunk does not end with CRLF"));
        }
    }
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Writes `response` (its head alone for a HEAD request).
fn write_response(
    writer: &mut impl Write,
    response: &HttpResponse,
    head_only: bool,
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
    if !keep_alive {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&response.body);
    }
    writer.write_all(&bytes)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], max_body: usize) -> (ReadResult, Vec<u8>) {
        let mut written = Vec::new();
        let r = read_request(&mut &text[..], &mut written, max_body);
        (r, written)
    }

    #[test]
    fn requests_are_read_with_their_bodies_and_limits() {
        let (r, _) = read(
            b"POST /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            10,
        );
        let (req, keep) = r.unwrap().unwrap();
        assert_eq!(
            (req.method.as_str(), req.target.as_str()),
            ("POST", "/api/x")
        );
        assert_eq!((req.body.as_slice(), keep), (&b"hello"[..], true));
        assert_eq!(req.header("host"), Some("a"));
        // Chunked, with an extension and a trailer; HTTP/1.0 closes.
        let (r, _) = read(
            b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n",
            10,
        );
        let (req, keep) = r.unwrap().unwrap();
        assert_eq!((req.body.as_slice(), keep), (&b"abcde"[..], false));
        // 100-continue is answered before the body is read.
        let (r, written) = read(
            b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
            10,
        );
        assert_eq!(written, b"HTTP/1.1 100 Continue\r\n\r\n");
        assert!(!r.unwrap().unwrap().1);
        // Nothing at all: the connection ended.
        assert!(read(b"", 10).0.unwrap().is_none());
    }

    #[test]
    fn bad_and_oversized_requests_get_their_status_without_allocating() {
        let status = |text: &[u8]| read(text, 10).0.unwrap_err().status;
        // An absurd announced length is refused before any buffer is made for it.
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999999999\r\n\r\n"),
            413
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffff\r\n"),
            413
        );
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n"), 400);
        // Signs are not digits; a length past any number is past the limit.
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: +2\r\n\r\nab"),
            400
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\nab\r\n0\r\n\r\n"),
            400
        );
        let huge = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            "9".repeat(40)
        );
        assert_eq!(status(huge.as_bytes()), 413);
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/2\r\n\r\n"), 505);
        assert_eq!(status(b"GET /\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nNo colon\r\n\r\n"), 400);
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"),
            501
        );
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(status(long.as_bytes()), 431);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab"),
            408
        );
    }
}
