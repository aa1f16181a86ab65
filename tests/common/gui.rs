//! A `wedge gui` server process and a small client of its API, for the browser board's tests.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `wedge gui --port 0`.
pub struct GuiServer {
    pub child: Child,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub base: String,
    pub port: u16,
}

impl GuiServer {
    pub fn start() -> GuiServer {
        GuiServer::start_with(&[])
    }

    /// `wedge gui` on a free port with more arguments, its output closed from the start (as a
    /// launcher that does not read it); waits until it answers.
    pub fn start_with_output_closed(extra: &[&str]) -> GuiServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = spawn_gui(&port.to_string(), extra);
        drop(child.stdout.take());
        let until = std::time::Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("wedge gui ended ({status}) with its output closed");
            }
            assert!(
                std::time::Instant::now() < until,
                "wedge gui never listened"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        GuiServer {
            child,
            base: format!("http://127.0.0.1:{port}"),
            port,
        }
    }

    /// `wedge gui --port 0` with more arguments.
    pub fn start_with(extra: &[&str]) -> GuiServer {
        let mut child = spawn_gui("0", extra);
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        // The rest of its output is read and dropped while it runs, as a terminal would.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        // "wedge gui: open http://127.0.0.1:PORT/ in a browser ..."
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_string();
        let port = url.rsplit(':').next().unwrap().parse().unwrap();
        GuiServer {
            child,
            base: url,
            port,
        }
    }

    /// `POST /api/claim`: the token, or the error body.
    pub fn claim(&self, force: bool) -> Result<String, (u16, Value)> {
        let (status, body) = self.post("/api/claim", None, &format!("{{\"force\":{force}}}"));
        if status == 200 {
            Ok(body["token"].as_str().unwrap().to_string())
        } else {
            Err((status, body))
        }
    }

    /// `POST /api/command` with this token and JSON body.
    pub fn command(&self, token: &str, body: &str) -> (u16, Value) {
        self.post("/api/command", Some(token), body)
    }

    /// The state, through `GET /api/state`.
    pub fn state(&self, token: &str) -> Value {
        let r = ureq::get(&format!("{}/api/state", self.base))
            .set("X-Wedge-Token", token)
            .call()
            .expect("state");
        serde_json::from_str(&r.into_string().unwrap()).unwrap()
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
        let mut r = ureq::post(&format!("{}{path}", self.base));
        if let Some(t) = token {
            r = r.set("X-Wedge-Token", t);
        }
        let (status, text) = match r.send_string(body) {
            Ok(resp) => (resp.status(), resp.into_string().unwrap()),
            Err(ureq::Error::Status(code, resp)) => (code, resp.into_string().unwrap()),
            Err(e) => panic!("POST {path}: {e}"),
        };
        let value = serde_json::from_str(&text).unwrap_or(Value::Null);
        (status, value)
    }

    /// Sends `request` as raw bytes and returns the status code of the answer.
    pub fn raw(&self, request: &[u8]) -> u16 {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        // A server may answer before reading all of a large body, and close: not an error here.
        let _ = s.write_all(request);
        // The status line is all that is wanted: read until it has come.
        let mut answer = Vec::new();
        let mut buf = [0u8; 512];
        while !answer.windows(2).any(|w| w == b"\r\n") {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
        let text = String::from_utf8_lossy(&answer);
        text.split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"))
    }

    /// Waits (at most `secs`) until `f(state)` holds; returns that state.
    pub fn wait_for(&self, token: &str, secs: u64, f: impl Fn(&Value) -> bool) -> Value {
        let until = std::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state(token);
            if f(&s) {
                return s;
            }
            assert!(
                std::time::Instant::now() < until,
                "timed out; last state: {s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for GuiServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `wedge gui --port PORT` with more arguments, its output piped.
fn spawn_gui(port: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["gui", "--port", port])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start wedge gui")
}
