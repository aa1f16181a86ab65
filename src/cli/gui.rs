//! `wedge gui`: the board in the browser ([docs/gui.md](../../docs/gui.md)).

use std::io::Write;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wedge::gui::{open_browser, GuiServer};

/// The arguments of `wedge gui`.
#[derive(clap::Args)]
pub struct GuiArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (an IP address, or `localhost` for 127.0.0.1). Anything but the
    /// loopback address lets other machines play on this engine: only on a network you trust.
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host)]
    pub host: IpAddr,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
}

/// `--host`: an IP address, or `localhost` (the loopback address; other names are not looked up,
/// so that the page is never served on an address a name happens to stand for).
fn parse_host(text: &str) -> Result<IpAddr, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    text.parse().map_err(|_| {
        format!("'{text}' is not an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or localhost")
    })
}

/// Serves the board until Ctrl-C.
pub fn run(args: GuiArgs) -> Result<(), String> {
    let server = GuiServer::bind(args.host, args.port).map_err(|e| e.to_string())?;
    if !args.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: anyone who can reach this address can use the engine",
            server.addr()
        );
    }
    let url = server.url();
    // Written without `println!`: a server started with its output closed (from a launcher, or
    // by a reader that took the first line and went) keeps serving instead of panicking.
    let mut banner = format!("wedge gui: open {url} in a browser (Ctrl-C ends it)\n");
    if args.host.is_unspecified() {
        banner += &format!(
            "from other machines: http://<this machine's address>:{}/\n",
            server.addr().port()
        );
    }
    let _ = std::io::stdout().write_all(banner.as_bytes());
    if args.open {
        if let Err(e) = open_browser(&url) {
            eprintln!("cannot start a browser ({e}): open {url} yourself");
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The first signal ends the session in order (searches stopped); a second ends it at once.
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 1, stop.clone());
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    let status = server.run(stop, std::io::stdout());
    if status != 0 {
        return Err("the engine could not start".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_host;

    #[test]
    fn hosts_are_addresses_or_localhost() {
        assert_eq!(parse_host("LocalHost").unwrap().to_string(), "127.0.0.1");
        assert_eq!(parse_host("::1").unwrap().to_string(), "::1");
        assert!(parse_host("example.com").unwrap_err().contains("localhost"));
    }
}
