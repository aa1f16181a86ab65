//! `wedge gui`: the board in the browser. A web server on the loopback interface serves one page
//! (HTML, script and style embedded in the binary: nothing is fetched from elsewhere) and a small
//! JSON API (docs/gui.md), and passes each API request to the engine's session loop, where the
//! front end [`crate::engine::gui`] owns the game. This module moves bytes and guards the door:
//!
//! - a request whose `Host` is not the server's own address, or whose `Origin` is another site,
//!   is refused, so a page elsewhere (or a DNS name rebound to 127.0.0.1) cannot drive the engine;
//! - request heads, bodies and addresses have size caps, checked before anything is kept
//!   ([`http`], which also closes silent connections);
//! - the server reads and writes no file: games come and go through the browser's upload and
//!   download.

use crate::engine::gui::GuiFrontEnd;
use crate::engine::session;
use crate::engine::Event;
use crate::protocol::gui::{
    parse_claim, parse_command, token_json, Answer, ApiError, Command, Request,
};
use crossbeam_channel::{bounded, RecvTimeoutError, Sender};
use http::{HttpError, HttpRequest, HttpResponse};
use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub mod http;

/// The largest request body read (a GGF game is a few kB; an upload of a whole file of games is
/// refused well before it costs memory).
pub const MAX_BODY: usize = 256 * 1024;
/// The longest request address.
pub const MAX_URL: usize = 2048;
/// How long a request waits for the engine's answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How often time passes for the front end (clocks, silent tabs, the analysis).
const TICK: Duration = Duration::from_millis(250);

/// What the page may load: its own script and style, nothing from elsewhere.
const POLICY: &str =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Why the server could not start.
#[derive(Debug)]
pub enum GuiError {
    /// The address could not be bound (in use, not this machine's, no permission).
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for GuiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GuiError::Bind { addr, reason } => write!(f, "cannot listen on {addr}: {reason}"),
        }
    }
}

impl std::error::Error for GuiError {}

/// A bound server, not yet serving.
pub struct GuiServer {
    listener: TcpListener,
    addr: SocketAddr,
    /// The `Host` values the server answers to.
    hosts: Hosts,
}

impl GuiServer {
    /// Binds `host:port` (port 0: any free port).
    pub fn bind(host: IpAddr, port: u16) -> Result<GuiServer, GuiError> {
        let wanted = SocketAddr::new(host, port);
        let bind_error = |e: std::io::Error| GuiError::Bind {
            addr: wanted,
            reason: e.to_string(),
        };
        let listener = TcpListener::bind(wanted).map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let hosts = Hosts {
            ip: host,
            port: addr.port(),
        };
        Ok(GuiServer {
            listener,
            addr,
            hosts,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address on this machine (for a server on every address, `0.0.0.0` or `::`,
    /// the loopback one: a browser cannot open the wildcard address everywhere).
    pub fn url(&self) -> String {
        match self.addr.ip() {
            IpAddr::V4(ip) if ip.is_loopback() || ip.is_unspecified() => {
                format!("http://127.0.0.1:{}/", self.addr.port())
            }
            IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[::1]:{}/", self.addr.port()),
            _ => format!("http://{}/", self.addr),
        }
    }

    /// Serves until `stop` is raised; engine messages go to `out`. Returns the exit status.
    pub fn run(self, stop: Arc<AtomicBool>, out: impl Write) -> i32 {
        let GuiServer {
            listener, hosts, ..
        } = self;
        let start = move |events: Sender<Event>| -> std::io::Result<()> {
            let (their_events, their_stop) = (events.clone(), stop.clone());
            std::thread::Builder::new()
                .name("http".into())
                .spawn(move || {
                    let handle = Arc::new(move |r: &HttpRequest| respond(r, &their_events, &hosts));
                    http::serve(&listener, &their_stop, MAX_BODY, handle, refusal);
                })?;
            std::thread::Builder::new()
                .name("gui-ticker".into())
                .spawn(move || loop {
                    std::thread::sleep(TICK);
                    if stop.load(Ordering::Relaxed) {
                        let _ = events.send(Event::Eof);
                        return;
                    }
                    if events.send(Event::Gui(Request::Tick)).is_err() {
                        return;
                    }
                })?;
            Ok(())
        };
        session::run_with(GuiFrontEnd::new(), start, out)
    }
}

/// The `Host` values the server answers to: its own address written as an IP address, any of the
/// machine's when it listens on all of them (`0.0.0.0`, `::`), and `localhost` on a loopback or
/// wildcard address; with the server's port, or none when that is 80. A name other than
/// `localhost` is refused: a web page could point a name of its own at this machine (DNS
/// rebinding) and reach the engine with the browser's help, while an address cannot be anyone's.
#[derive(Clone, Copy, Debug)]
struct Hosts {
    /// The address the server listens on.
    ip: IpAddr,
    /// Its port.
    port: u16,
}

impl Hosts {
    /// Whether `host` (a `Host` header, or an origin without its scheme) names this server.
    fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        if port.unwrap_or(80) != self.port {
            return false;
        }
        let wildcard = self.ip.is_unspecified();
        if name.eq_ignore_ascii_case("localhost") {
            return wildcard || self.ip.is_loopback();
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => wildcard || ip == self.ip || (ip.is_loopback() && self.ip.is_loopback()),
            Err(_) => false,
        }
    }
}

/// Whether two hosts (`name[:port]`) are the same name and port, the port 80 when none is given.
fn same_host(a: &str, b: &str) -> bool {
    match (split_host(a), split_host(b)) {
        (Some((na, pa)), Some((nb, pb))) => {
            na.eq_ignore_ascii_case(nb) && pa.unwrap_or(80) == pb.unwrap_or(80)
        }
        _ => false,
    }
}

/// A host's name (an IPv6 address without its brackets) and port, if it has one; `None` when it
/// is not `name[:port]` or `[ipv6][:port]`.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']')?,
        None => host.split_once(':').unwrap_or((host, "")),
    };
    // After a bracketed address, the port comes after a ':'; after a name, split off already.
    let port = if host.starts_with('[') {
        match port {
            "" => "",
            p => p.strip_prefix(':').filter(|p| !p.is_empty())?,
        }
    } else if host.ends_with(':') {
        return None;
    } else {
        port
    };
    let port = match port {
        "" => None,
        p => Some(p.parse().ok()?),
    };
    Some((name, port))
}

/// The answer to a request the server could not read.
fn refusal(e: &HttpError) -> HttpResponse {
    reply(
        e.status,
        "application/json",
        serde_json::json!({ "error": e.message, "kind": "http" }).to_string(),
    )
}

/// Answers one request.
fn respond(request: &HttpRequest, events: &Sender<Event>, hosts: &Hosts) -> HttpResponse {
    match answer(request, events, hosts) {
        Ok((status, content_type, body)) => reply(status, content_type, body),
        Err((status, message)) => refusal(&HttpError { status, message }),
    }
}

/// A response with the headers every answer carries.
fn reply(status: u16, content_type: &'static str, body: String) -> HttpResponse {
    let headers = [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy", POLICY),
    ];
    HttpResponse {
        status,
        headers: headers.iter().map(|&(n, v)| (n, v.to_string())).collect(),
        body: body.into_bytes(),
    }
}

type Reply = (u16, &'static str, String);

/// Why no answer came: the engine is gone, or it is slow (the command is still queued).
fn unanswered(e: RecvTimeoutError) -> ApiError {
    match e {
        RecvTimeoutError::Timeout => ApiError::Slow,
        RecvTimeoutError::Disconnected => ApiError::Unavailable,
    }
}

/// The checks every request passes, then its route.
fn answer(
    request: &HttpRequest,
    events: &Sender<Event>,
    hosts: &Hosts,
) -> Result<Reply, (u16, String)> {
    let host = request.header("Host").unwrap_or("");
    if !hosts.allows(host) {
        return Err((
            403,
            format!("refused: Host '{}' is not this server", clip(host)),
        ));
    }
    if let Some(origin) = request.header("Origin") {
        // The page's own requests come from the address it was loaded from, the one in `Host`:
        // on all addresses, another of the machine's (or any address's page) is not the page.
        let own = origin
            .get(..7)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"))
            && hosts.allows(&origin[7..])
            && same_host(&origin[7..], host);
        if !own {
            return Err((
                403,
                format!("refused: Origin '{}' is not this server", clip(origin)),
            ));
        }
    }
    if request.target.len() > MAX_URL {
        return Err((414, format!("the address is longer than {MAX_URL} bytes")));
    }
    let path = request.target.split('?').next().unwrap_or("").to_string();
    // A link from another site may open the page, but only the page itself may use the API.
    let cross_site = request
        .header("Sec-Fetch-Site")
        .is_some_and(|s| s == "cross-site");
    if cross_site && path.starts_with("/api/") {
        return Err((403, "refused: a request from another site".into()));
    }
    // HEAD is GET without the body (the connection writes only the head).
    let method = match request.method.as_str() {
        "HEAD" => "GET",
        m => m,
    };
    match (method, path.as_str()) {
        ("GET", "/" | "/index.html") => Ok((200, "text/html; charset=utf-8", PAGE.into())),
        ("GET", "/app.js") => Ok((200, "text/javascript; charset=utf-8", SCRIPT.into())),
        ("GET", "/style.css") => Ok((200, "text/css; charset=utf-8", STYLE.into())),
        ("GET", "/api/state") => {
            let token = request.header("X-Wedge-Token").unwrap_or("").to_string();
            command(events, token, Command::State)
        }
        ("POST", "/api/claim") => {
            let force = match parse_claim(&read_body(request)?) {
                Ok(force) => force,
                Err(e) => return Ok(api_error(&e)),
            };
            let (reply, answer) = bounded(1);
            send(events, Request::Claim { force, reply })?;
            match answer.recv_timeout(ANSWER_TIMEOUT) {
                Ok(Ok(token)) => Ok((200, "application/json", token_json(&token))),
                Ok(Err(e)) => Ok(api_error(&e)),
                Err(e) => Ok(api_error(&unanswered(e))),
            }
        }
        ("POST", "/api/leave") => {
            let token = read_body(request)?.trim().to_string();
            send(events, Request::Leave { token })?;
            Ok((204, "text/plain", String::new()))
        }
        ("POST", "/api/command") => {
            let body = read_body(request)?;
            let token = request.header("X-Wedge-Token").unwrap_or("").to_string();
            match parse_command(&body) {
                Ok(c) => command(events, token, c),
                Err(e) => Ok(api_error(&e)),
            }
        }
        (_, "/" | "/index.html" | "/app.js" | "/style.css" | "/api/state") => {
            Err((405, "method not allowed".into()))
        }
        (_, "/api/claim" | "/api/leave" | "/api/command") => {
            Err((405, "method not allowed".into()))
        }
        _ => Err((404, format!("no such page: {}", clip(&path)))),
    }
}

/// Passes a command to the engine and waits for its answer.
fn command(
    events: &Sender<Event>,
    token: String,
    command: Command,
) -> Result<Reply, (u16, String)> {
    let (reply, answer) = bounded(1);
    send(
        events,
        Request::Command {
            token,
            command,
            reply,
        },
    )?;
    Ok(match answer.recv_timeout(ANSWER_TIMEOUT) {
        Ok(Ok(a @ Answer::State(_))) | Ok(Ok(a @ Answer::Ggf(_))) => {
            (200, "application/json", a.to_json())
        }
        Ok(Err(e)) => api_error(&e),
        Err(e) => api_error(&unanswered(e)),
    })
}

fn send(events: &Sender<Event>, request: Request) -> Result<(), (u16, String)> {
    events
        .send(Event::Gui(request))
        .map_err(|_| (503, ApiError::Unavailable.to_string()))
}

fn api_error(e: &ApiError) -> Reply {
    (e.status(), "application/json", e.to_json())
}

/// The request's body as text (the server has kept it within [`MAX_BODY`] bytes).
fn read_body(request: &HttpRequest) -> Result<String, (u16, String)> {
    String::from_utf8(request.body.clone())
        .map_err(|_| (400, "the request is not UTF-8 text".into()))
}

/// At most 60 characters of what a client sent, for a message.
fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

/// Starts the system's browser on `url`; says why not when it cannot.
pub fn open_browser(url: &str) -> Result<(), std::io::Error> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_by_address_are_answered_and_names_refused() {
        let local = Hosts {
            ip: "127.0.0.1".parse().unwrap(),
            port: 8080,
        };
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(local.allows(ok), "{ok}");
        }
        for bad in [
            "127.0.0.1:8081",
            "127.0.0.1",
            "evil.example:8080",
            "192.168.1.5:8080",
            "",
            "127.0.0.1:",
            "[::1",
            "127.0.0.1:8080:1",
        ] {
            assert!(!local.allows(bad), "{bad}");
        }
        let all = Hosts {
            ip: "0.0.0.0".parse().unwrap(),
            port: 8080,
        };
        for ok in [
            "192.168.1.5:8080",
            "127.0.0.1:8080",
            "localhost:8080",
            "[fe80::1]:8080",
        ] {
            assert!(all.allows(ok), "{ok}");
        }
        for bad in ["mybox.lan:8080", "192.168.1.5:80", "192.168.1.5"] {
            assert!(!all.allows(bad), "{bad}");
        }
        // On port 80 a browser leaves the port out.
        let web = Hosts {
            ip: "0.0.0.0".parse().unwrap(),
            port: 80,
        };
        assert!(web.allows("192.168.1.5") && web.allows("192.168.1.5:80"));
        assert!(!web.allows("rebind.example"));
    }
}
