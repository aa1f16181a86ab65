//! A wedge engine process driven over pipes, for the integration tests that speak its protocol.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use wedge::board::{Move, Position};

pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Engine {
    /// The process.
    pub child: Child,
    /// Its input (None once closed).
    pub stdin: Option<ChildStdin>,
    /// Its output, line by line.
    pub lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The binary with these arguments (e.g. `play ...`).
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start wedge");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got so far: {out:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got: {out:#?}"),
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut l = self.until(|l| l == "readyok");
        l.pop();
        l
    }

    pub fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.until(|l| l.starts_with("bestmove"));
        let last = lines.last().unwrap().clone();
        let parts: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(parts.len(), 2, "bestmove must be two tokens: {last}");
        (lines, parts[1].to_string())
    }

    /// The `board:` line of `d`: the whole current position.
    pub fn board(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("hash:"));
        lines
            .iter()
            .find(|l| l.starts_with("board:"))
            .unwrap()
            .clone()
    }

    pub fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn legal_in(pos: &Position, mv: &str) -> bool {
    let m: Move = mv.parse().unwrap();
    pos.play(m).is_some()
}

pub mod gui;
#[cfg(target_os = "linux")]
pub mod procs;
pub mod webdriver;
