//! A small WebDriver client (the W3C protocol over HTTP) driving a headless Chromium through
//! chromedriver, for the browser board's end-to-end tests.

use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The key of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on PATH (or the path in the environment variable `var`).
fn find(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver and a headless Chromium, one session.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
}

impl Browser {
    /// Starts chromedriver and a browser session; `Err` says what is missing.
    pub fn start() -> Result<Browser, String> {
        let driver_path =
            find("WEDGE_CHROMEDRIVER", &["chromedriver"]).ok_or("chromedriver is not installed")?;
        let chromium = find(
            "WEDGE_CHROMIUM",
            &["chromium", "chromium-browser", "google-chrome", "chrome"],
        )
        .ok_or("chromium is not installed")?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", driver_path.display()))?;
        let base = format!("http://127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
        };
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(r) = ureq::get(&format!("{}/status", browser.base)).call() {
                let v: Value = serde_json::from_str(&r.into_string().unwrap_or_default())
                    .unwrap_or(Value::Null);
                if v["value"]["ready"] == true {
                    break;
                }
            }
            if Instant::now() > until {
                return Err("chromedriver did not start".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,1000",
                         "--force-device-scale-factor=1"],
            },
        }}});
        let v = browser.call("POST", "/session", caps)?;
        browser.session = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session: {v}"))?
            .to_string();
        Ok(browser)
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let request = ureq::request(method, &url).timeout(Duration::from_secs(120));
        let answer = if method == "GET" || method == "DELETE" {
            request.call()
        } else {
            request
                .set("Content-Type", "application/json")
                .send_string(&body.to_string())
        };
        let text = match answer {
            Ok(r) => r.into_string().map_err(|e| e.to_string())?,
            Err(ureq::Error::Status(code, r)) => {
                return Err(format!(
                    "{method} {path}: {code} {}",
                    r.into_string().unwrap_or_default()
                ))
            }
            Err(e) => return Err(format!("{method} {path}: {e}")),
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        Ok(v["value"].clone())
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body)
            .unwrap_or_else(|e| panic!("WebDriver: {e}"))
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    pub fn set_window(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub fn run(&self, script: &str, args: Value) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": args }),
        )
    }

    /// Runs `script`, which calls `arguments[arguments.length - 1](value)` when done.
    pub fn run_async(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/async",
            json!({ "script": script, "args": [] }),
        )
    }

    /// Clicks the element `css` selects (as a person would: WebDriver's element click).
    pub fn click(&self, css: &str) {
        let v = self.session_call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        let id = v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {v}"));
        self.session_call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Waits (at most `secs`) until `script` returns true.
    pub fn wait(&self, secs: u64, what: &str, script: &str) {
        let until = Instant::now() + Duration::from_secs(secs);
        while self.run(script, json!([])) != Value::Bool(true) {
            if Instant::now() > until {
                let status = self.run(
                    "return (document.getElementById('status') || document.body).textContent",
                    json!([]),
                );
                panic!("timed out waiting for {what}; the page says {status}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The page as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.session_call("GET", "/screenshot", Value::Null);
        base64_decode(v.as_str().expect("a screenshot"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), Value::Null);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with padding) to bytes.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().fold(0u32, |acc, &d| acc << 6 | d) << (6 * (4 - chunk.len()));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}
