//! `wedge` with no tool: the engine process on stdin/stdout, in the protocol asked for or the one
//! its first line shows.

/// Runs the engine on stdin/stdout in the chosen protocol (`auto`: detected from the first line).
pub fn run_engine(protocol: &str) -> i32 {
    use std::io::{IsTerminal, Read};
    // A person at a terminal sees at once that the engine runs and what to type; GUIs and scripts
    // on pipes get nothing before their first command, and neither does a chosen NBoard or GTP
    // session (a line they do not expect, naming commands they do not have).
    if std::io::stdin().is_terminal() && matches!(protocol, "auto" | "wedge") {
        println!(
            "wedge {}, an Othello engine: type 'help' for the commands, 'quit' to leave \
             ('wedge --help' lists the command-line tools)",
            env!("CARGO_PKG_VERSION")
        );
    }
    use wedge::engine::run;
    use wedge::protocol::Protocol;
    let mut stdin = std::io::BufReader::new(std::io::stdin());
    let (protocol, first) = match protocol {
        "wedge" => (Protocol::Wedge, Vec::new()),
        "nboard" => (Protocol::Nboard, Vec::new()),
        "gtp" => (Protocol::Gtp, Vec::new()),
        _ => wedge::protocol::read_first_command(&mut stdin),
    };
    let input = std::io::Cursor::new(first).chain(stdin);
    run(protocol, input, std::io::stdout())
}
