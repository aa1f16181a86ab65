//! The engine process. A reader thread passes stdin's lines on, a worker thread searches, and one
//! loop ([`session::run`]) on the main thread owns the shared [`core::Core`] and the single
//! writer and hands every event to the front end of the protocol the session speaks. All threads
//! talk through one crossbeam channel of [`Event`]s, so the loop has no locks around the game
//! state:
//!
//! ```text
//! stdin -> reader -> Event -> session loop -> front end -> Job -> worker (search) -> Event -> loop
//!                                                     \-> writer -> stdout
//! ```
//!
//! - [`session`]: the event loop, the [`session::FrontEnd`] seam, the writer, the end-of-input
//!   grace.
//! - [`input`]: the reader thread.
//! - [`core`]: what every front end shares: options, book, evaluation, search plans, the worker's
//!   jobs. It takes a [`request::SearchRequest`], which each front end builds from its protocol.
//! - [`worker`]: the search thread (games' searches and `perft`, `bench`, learning a game into
//!   the book: [`learn`]); [`report`]: what it reports.
//! - [`game`]: the games the engine searches, behind one trait ([`game::EngineGame`]): the search
//!   and `perft` jobs of any game and their reports are written once there.
//! - [`options`]: the options table.
//! - [`variant`]: variant boards (any size, blocked squares; protocol.md 3.1) for the wedge front
//!   end: their positions, search plans and options, and the worker's variant searcher.
//! - One state machine per protocol, each over its text module in `src/protocol/`: [`wedge`]
//!   (wedge's UCI-shaped protocol), [`nboard`], [`gtp`]; [`play`], the practice game in the
//!   terminal (`wedge play`); and [`gui`], the board in the browser (`wedge gui`), whose requests
//!   come from a web server instead of a reader.
//!
//! A new protocol is one text module in `src/protocol/`, one [`session::FrontEnd`] here and one arm
//! in [`run`]. A new game is its board and search (its own folder, as `src/variant/`), an
//! `impl` of [`crate::game::Game`] and of [`game::EngineGame`], and its text in `src/protocol/`.

pub mod core;
pub mod game;
pub mod gtp;
pub mod gui;
pub mod input;
pub mod learn;
pub mod nboard;
pub mod options;
pub mod play;
pub mod report;
pub mod request;
pub mod session;
pub mod variant;
pub mod wedge;
pub mod worker;

use crate::protocol::{LineError, Protocol};
use std::io::{BufRead, Write};

/// Everything the session loop reacts to.
pub enum Event {
    /// A line from the input, without its line ending (an error for an oversized or non-UTF-8
    /// line).
    Line(Result<String, LineError>),
    /// The input is closed.
    Eof,
    /// The worker reports.
    Worker(worker::Report),
    /// The browser board's server passes on a request.
    Gui(crate::protocol::gui::Request),
}

/// Runs the engine on `input` and `output` in `protocol` until it is told to quit or the input ends;
/// returns the process exit status.
pub fn run(protocol: Protocol, input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    match protocol {
        Protocol::Wedge => session::run(wedge::WedgeFrontEnd::new(), input, output),
        Protocol::Nboard => session::run(nboard::NboardFrontEnd::new(), input, output),
        Protocol::Gtp => session::run(gtp::GtpFrontEnd::new(), input, output),
    }
}
