//! `wedge client`: plays a session in the course's game server (docs/variants.md, "The client"):
//! connects, hands the socket to the library's session loop with the chosen player, prints each
//! game's end and the session's tally; exits 0 on ABORT, non-zero (with the offending bytes) on a
//! malformed message or a connection that ends without ABORT.

use std::io::BufReader;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;
use wedge::variant::board::{Side, SideNames};
use wedge::variant::client::{self, ClientConfig, ClientEvent};
use wedge::variant::player::{Player, PlayerKind};

/// The arguments of `wedge client`.
#[derive(clap::Args)]
pub struct ClientArgs {
    /// The colour to play (the hello: white 0, red 1), for the whole session.
    #[arg(long, alias = "color", value_parser = ["white", "red"])]
    pub colour: String,
    /// The server's host.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The server's port.
    #[arg(long, default_value_t = 5555)]
    pub port: u16,
    /// Search N plies a move (still within the clock the server reports).
    #[arg(long, conflicts_with = "movetime")]
    pub level: Option<u32>,
    /// Think at most MS milliseconds a move (still within the clock the server reports).
    #[arg(long, value_parser = super::at_least_one::<u64>)]
    pub movetime: Option<u64>,
    /// Who plays: wedge's search, or the random or greedy baseline.
    #[arg(long, default_value = "wedge", value_parser = ["wedge", "random", "greedy"])]
    pub player: String,
    /// The board's size ROWSxCOLS (default: a square board from the number of cells the server
    /// sends; needed only for boards that are not square).
    #[arg(long)]
    pub size: Option<String>,
    /// Seed of the random choices (the random player, greedy's ties).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Connects to `host:port` (each address it resolves to in turn, 10 seconds each). A refused
/// connection is tried again within those 10 seconds: a server started just before the client
/// may not be listening yet.
fn connect(host: &str, port: u16) -> Result<TcpStream, String> {
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}:{port}: {e}"))?;
    let mut last = format!("{host}:{port}: no address");
    for addr in addrs {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match TcpStream::connect_timeout(&addr, left.max(Duration::from_millis(1))) {
                Ok(stream) => return Ok(stream),
                Err(e) => {
                    last = format!("connecting to {addr}: {e}");
                    let retry = e.kind() == std::io::ErrorKind::ConnectionRefused
                        && left > Duration::from_millis(200);
                    if !retry {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
    }
    Err(last)
}

/// Asks the system to probe the connection while it is idle, so that a server whose machine
/// vanished without closing it ends the session with an error within about two minutes instead
/// of a wait without end (a server that keeps the connection and sends nothing is still waited
/// for: its players may think for a long time).
#[cfg(unix)]
fn keep_alive(stream: &TcpStream) {
    use std::os::fd::AsRawFd;
    let fd = stream.as_raw_fd();
    let set = |level: libc::c_int, name: libc::c_int, value: libc::c_int| {
        // SAFETY: `fd` is the open socket `stream` owns for the whole call, and the option value
        // is a live c_int passed by pointer with its own size, which is what setsockopt reads.
        // A failure leaves the socket as it was; it is ignored (the probes are a convenience).
        unsafe {
            libc::setsockopt(
                fd,
                level,
                name,
                (&value as *const libc::c_int).cast::<libc::c_void>(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
    };
    set(libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1);
    #[cfg(target_os = "linux")]
    {
        // The first probe after 60 s of silence, then every 10 s; 6 unanswered end it.
        set(libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, 60);
        set(libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, 10);
        set(libc::IPPROTO_TCP, libc::TCP_KEEPCNT, 6);
    }
}

#[cfg(not(unix))]
fn keep_alive(_stream: &TcpStream) {}

/// Runs `wedge client`.
pub fn run(args: ClientArgs) -> Result<(), String> {
    let colour = if args.colour == "white" {
        Side::First
    } else {
        Side::Second
    };
    let kind = match args.player.as_str() {
        "random" => PlayerKind::Random,
        "greedy" => PlayerKind::Greedy,
        _ => PlayerKind::Engine,
    };
    let size = args
        .size
        .as_deref()
        .map(|s| wedge::variant::board::parse_size(s).map_err(|e| format!("--size: {e}")))
        .transpose()?;
    if args.level == Some(0) {
        return Err("--level must be at least 1".into());
    }
    let config = ClientConfig {
        colour,
        size,
        depth: args.level,
        movetime: args.movetime.map(Duration::from_millis),
    };
    let stream = connect(&args.host, args.port)?;
    let _ = stream.set_nodelay(true);
    keep_alive(&stream);
    let peer = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| format!("{}:{}", args.host, args.port));
    println!("connected to {peer} as {} ({})", colour.name(), args.player);
    let mut player = Player::new(kind, args.seed);
    let mut reader = BufReader::new(&stream);
    let mut writer = &stream;
    let mut on_event = |event: ClientEvent<'_>| {
        if let ClientEvent::GameEnded {
            number,
            mine,
            theirs,
            finished,
        } = event
        {
            let what = if !finished {
                "ended early by the server (time or an illegal move)"
            } else if mine > theirs {
                "won"
            } else if mine < theirs {
                "lost"
            } else {
                "drawn"
            };
            println!("game {number}: {what}, {mine}-{theirs} (mine-theirs)");
        }
    };
    let report = client::play_session(
        &mut reader,
        &mut writer,
        &config,
        &mut player,
        &mut on_event,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "session over (ABORT{}): {} games, {} won, {} lost, {} drawn, {} ended early; discs {}-{} (mine-theirs)",
        if report.aborted_mid_game {
            " in the middle of a game"
        } else {
            ""
        },
        report.games,
        report.wins,
        report.losses,
        report.draws,
        report.unfinished,
        report.discs,
        report.opponent_discs
    );
    Ok(())
}
