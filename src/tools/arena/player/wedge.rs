//! Engines that speak wedge's protocol (UCI/UGI-shaped): `uci`, options, `isready` before each
//! move, `position ... moves ...` and `go`, answered by `bestmove`.

use super::*;
use crate::game::Game;

/// An engine process speaking wedge's protocol.
pub struct ProcessPlayer {
    pipe: Pipe,
    /// For an engine with a `Seed` option: the seed it was given (`option.Seed`, else 0), mixed
    /// with each game's seed ([`Player::new_game`]).
    seed_base: Option<u64>,
}

/// The largest `Seed` wedge accepts (protocol.md): per-game seeds are drawn in `0..=SEED_MAX`.
const SEED_MAX: u64 = 2_147_483_647;

impl ProcessPlayer {
    /// Starts the program, does the `uci` handshake and sends the options.
    pub fn start(
        cmd: &str,
        args: &[String],
        options: &[(String, String)],
        launch: &Launch,
    ) -> Result<Self, Failure> {
        let mut pipe = Pipe::spawn(cmd, args, launch.stderr_log.as_deref(), launch.stop.clone())?;
        pipe.send("uci").map_err(handshake)?;
        let mut has_seed = false;
        pipe.wait(Instant::now() + HANDSHAKE_TIMEOUT, |l| {
            has_seed |= advertises_seed(l);
            l == "uciok"
        })
        .map_err(handshake)?;
        for (name, value) in options {
            pipe.send(&format!("setoption name {name} value {value}"))?;
        }
        let errors = refusals_until_ready(&mut pipe)?;
        if !errors.is_empty() {
            return Err(options_refused(options, &errors));
        }
        let seed_base = has_seed.then(|| {
            options
                .iter()
                .rev()
                .find(|(name, _)| name.eq_ignore_ascii_case("Seed"))
                .and_then(|(_, value)| value.trim().parse::<u64>().ok())
                .unwrap_or(0)
        });
        Ok(ProcessPlayer { pipe, seed_base })
    }

    pub(in crate::tools::arena) fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.pipe.send(line)
    }

    pub(in crate::tools::arena) fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, Failure> {
        self.pipe.wait_for(done, deadline)
    }
}

/// `isready`, then the reasons of the commands the engine refused since the last `readyok`: it
/// answers a command it refuses with `info string error: ...` (protocol.md), so every such line
/// before `readyok` is about the commands just sent. A `bestmove` among them is a protocol
/// violation: every `go` gets one `bestmove`, already read, so a second one is a failure (taken
/// silently, it would be read as the engine's next move).
fn refusals_until_ready(pipe: &mut Pipe) -> Result<Vec<String>, Failure> {
    pipe.send("isready")?;
    let mut errors = Vec::new();
    let mut stray = None;
    pipe.wait(Instant::now() + HANDSHAKE_TIMEOUT, |l| {
        if let Some(e) = l.strip_prefix("info string error") {
            errors.push(e.trim_start_matches(':').trim().to_string());
        }
        if stray.is_none() && l.split_whitespace().next() == Some("bestmove") {
            stray = Some(l.to_string());
        }
        l == "readyok"
    })?;
    match stray {
        Some(line) => Err(Failure::SecondBestmove(line)),
        None => Ok(errors),
    }
}

/// Whether a line of the `uci` answer advertises a spin option named `Seed` (any case).
fn advertises_seed(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    matches!(
        words.as_slice(),
        ["option", "name", name, "type", "spin", ..] if name.eq_ignore_ascii_case("Seed")
    )
}

/// What the process player says and reads in wedge's protocol for a game: the `position` command,
/// the `go` of a time control, and the move of a `bestmove` answer. Each game that engines play over
/// wedge's protocol implements it (the 8 x 8 game here, variant boards in
/// [`crate::tools::arena::variant`]).
pub trait WedgeText: Game {
    /// The `position` command for the position `moves` after `start`.
    fn position_command(start: &Self, moves: &[Self::Move]) -> String;
    /// The letters of the first and the second player's clocks in `go` (`b` for `btime`/`binc`,
    /// `w` for `wtime`/`winc`).
    const CLOCK_LETTERS: [char; 2];
    /// The `go` command for a move with `clocks` under `tc`: a game clock as the first player's
    /// time, the second's, then their increments.
    fn go_command(tc: TimeControl, clocks: Clocks) -> String {
        let [first, second] = Self::CLOCK_LETTERS;
        match tc {
            TimeControl::Clock { .. } => format!(
                "go {first}time {} {second}time {} {first}inc {} {second}inc {}",
                clocks.left[0].as_millis(),
                clocks.left[1].as_millis(),
                clocks.increment.as_millis(),
                clocks.increment.as_millis()
            ),
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        }
    }
    /// The move a `bestmove` answer's word names (a pass included), if it names one.
    fn parse_move(word: &str) -> Option<Self::Move>;
    /// A move as the protocol writes it (a pass as `0000`).
    fn move_text(mv: Self::Move) -> String;
}

impl WedgeText for Position {
    /// `position startpos` or `position board <64 cells> <side>`, then the moves; passes are sent
    /// explicitly as `0000` (UCI's null move, which every UGI engine reads): a pass at the end of
    /// the list cannot be inferred by the engine.
    fn position_command(start: &Position, moves: &[Move]) -> String {
        let base = if *start == Position::START {
            "position startpos".to_string()
        } else {
            format!("position board {}", start)
        };
        let list: Vec<String> = moves.iter().map(|&m| Self::move_text(m)).collect();
        if list.is_empty() {
            base
        } else {
            format!("{base} moves {}", list.join(" "))
        }
    }

    /// Black's clock (`btime`) is the first player's.
    const CLOCK_LETTERS: [char; 2] = ['b', 'w'];

    fn parse_move(word: &str) -> Option<Move> {
        word.parse::<Move>().ok()
    }

    fn move_text(mv: Move) -> String {
        if mv.is_pass() {
            "0000".to_string()
        } else {
            mv.to_string()
        }
    }
}

impl<G: WedgeText> Player<G> for ProcessPlayer {
    /// `ucinewgame`; an engine with a `Seed` option first gets a seed drawn from its own and the
    /// game's, so that the noise a game draws (`Randomness`, levels, `BookRandomness`) depends on
    /// the game alone, not on which of the match's processes plays it or what that process played
    /// before. A refused seed fails the game (it would play with other noise unnoticed).
    fn new_game(&mut self, game_seed: u64) -> Result<(), Failure> {
        let Some(base) = self.seed_base else {
            self.send("ucinewgame")?;
            return refusals_until_ready(&mut self.pipe).map(|_| ());
        };
        let seed = Rng::new(game_seed ^ base.rotate_left(32)).next_u64() % (SEED_MAX + 1);
        self.send(&format!("setoption name Seed value {seed}"))?;
        self.send("ucinewgame")?;
        match refusals_until_ready(&mut self.pipe)?.first() {
            Some(e) => Err(Failure::SeedRefused {
                seed,
                reply: e.clone(),
            }),
            None => Ok(()),
        }
    }

    /// `isready`, then everything up to `readyok` is read and dropped; a second `bestmove` among
    /// it is a failure (`refusals_until_ready`).
    fn sync(&mut self) -> Result<(), Failure> {
        refusals_until_ready(&mut self.pipe).map(|_| ())
    }

    /// The game's `position` and `go`, and the `bestmove` answer read as its move; `none` is a
    /// failure in a live game.
    fn choose(
        &mut self,
        start: &G,
        moves: &[G::Move],
        _pos: &G,
        tc: TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<G::Move, Failure> {
        self.send(&G::position_command(start, moves))?;
        self.send(&G::go_command(tc, clocks))?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), deadline)?;
        let word = line.split_whitespace().nth(1).unwrap_or("");
        if word.eq_ignore_ascii_case("none") {
            return Err(Failure::NoMove);
        }
        G::parse_move(word).ok_or(Failure::Malformed(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_spin_option_named_seed_is_the_seed() {
        assert!(advertises_seed(
            "option name Seed type spin default 0 min 0 max 2147483647"
        ));
        assert!(advertises_seed("option name seed type spin default 1"));
        assert!(!advertises_seed("option name Seed type string default x"));
        assert!(!advertises_seed(
            "option name Seed Offset type spin default 0"
        ));
        assert!(!advertises_seed("option name Hash type spin default 16"));
        assert!(!advertises_seed("id name Seed"));
    }
}
