//! `wedge` with no tool: the engine process on stdin/stdout, in the protocol asked for or the one
//! its first line shows.

/// Runs the engine on stdin/stdout in the chosen protocol (`auto`: detected from the first line).
pub fn run_engine(protocol: &str) -> i32 {
    use std::io::{BufRead, IsTerminal, Read};
    // A person at a terminal sees at once that the engine runs and what to type; GUIs and scripts
    // on pipes get nothing before their first command.
    if std::io::stdin().is_terminal() {
        println!(
            "wedge {}, an Othello engine: type 'help' for the commands, 'quit' to leave \
             ('wedge --help' lists the command-line tools)",
            env!("CARGO_PKG_VERSION")
        );
    }
    use wedge::engine::run;
    use wedge::protocol::{detect_protocol, Protocol};
    let mut stdin = std::io::BufReader::new(std::io::stdin());
    let (protocol, first) = match protocol {
        "wedge" => (Protocol::Wedge, Vec::new()),
        "nboard" => (Protocol::Nboard, Vec::new()),
        "gtp" => (Protocol::Gtp, Vec::new()),
        _ => {
            // Read lines until one is not blank; its first word decides, and it is kept for the
            // protocol to read. Blank lines before it mean nothing in any protocol and are dropped,
            // and at most the protocol's line limit is read of a line, so neither endless blank
            // lines nor a huge first line can exhaust memory.
            let mut first = Vec::new();
            loop {
                let start = first.len();
                let limit = (wedge::protocol::MAX_LINE_BYTES + 2) as u64;
                match (&mut stdin).take(limit).read_until(b'\n', &mut first) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&first[start..]);
                        if !line.trim().is_empty() || !line.ends_with('\n') {
                            break;
                        }
                        first.truncate(start);
                    }
                }
            }
            let text = String::from_utf8_lossy(&first).to_string();
            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            (detect_protocol(line), first)
        }
    };
    let input = std::io::Cursor::new(first).chain(stdin);
    run(protocol, input, std::io::stdout())
}
