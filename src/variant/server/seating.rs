//! Seating the two clients and reading from them: the hello, and reads bound by a deadline that
//! look at the stop flag every [`POLL`].

use super::{idx, Event, Refusal, ServerError, SessionConfig, POLL};
use crate::variant::board::Side;
use crate::variant::wire::{self, ServerMessage};
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The most bytes [`Seat::drain`] drops before a GIVE MOVE.
const DRAIN_LIMIT: usize = 64 * 1024;

/// Why a deadline-bound read did not get its bytes.
pub(super) enum ReadFailure {
    /// The deadline passed.
    Timeout,
    /// The peer closed the connection or it failed.
    Gone,
    /// The stop flag was raised.
    Stopped,
}

/// A seated client.
pub(super) struct Seat {
    /// The connection.
    pub(super) stream: TcpStream,
    /// The client's address.
    pub(super) peer: SocketAddr,
    /// False once a read or write failed: nothing more is sent to it.
    pub(super) alive: bool,
}

impl Seat {
    /// Sends `msg`; a failure marks the seat dead.
    pub(super) fn send(&mut self, msg: &ServerMessage) -> bool {
        if self.alive {
            let ok = self
                .stream
                .write_all(&msg.encode())
                .and_then(|()| self.stream.flush());
            self.alive = ok.is_ok();
        }
        self.alive
    }

    /// Drops whatever the client sent that was not asked for (an early move, garbage, bytes left
    /// over from the last game), so that the answer to the next GIVE MOVE is read from a clean
    /// start and one misbehaviour costs one game. Returns the bytes dropped; a closed or failed
    /// connection is left for the next read to find.
    /// At most [`DRAIN_LIMIT`] bytes are dropped: a client that never stops sending leaves the
    /// rest for the next read, which then finds no move in it.
    pub(super) fn drain(&mut self) -> usize {
        if !self.alive || self.stream.set_nonblocking(true).is_err() {
            return 0;
        }
        let mut dropped = 0;
        let mut sink = [0u8; 512];
        while dropped < DRAIN_LIMIT {
            match self.stream.read(&mut sink) {
                Ok(0) => break,
                Ok(n) => dropped += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        if self.stream.set_nonblocking(false).is_err() {
            self.alive = false;
        }
        dropped
    }

    /// After a loss on time: waits up to `grace` for the answer that came too late (at most a
    /// move's bytes) and drops it, so that it is not read as the answer to the next game's first
    /// GIVE MOVE.
    pub(super) fn drop_late_answer(&mut self, grace: Duration, stop: &AtomicBool) {
        if !self.alive {
            return;
        }
        let mut late = [0u8; wire::MOVE_LEN];
        let deadline = Instant::now() + grace;
        if let Err(ReadFailure::Gone) = read_exact_by(&mut self.stream, &mut late, deadline, stop) {
            self.alive = false;
        }
    }

    /// Whether the client has closed its connection (or it failed): looked at without blocking,
    /// and without taking any byte it sent.
    fn closed(&self) -> bool {
        if self.stream.set_nonblocking(true).is_err() {
            return true;
        }
        let closed = match self.stream.peek(&mut [0u8; 1]) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => !matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
            ),
        };
        closed || self.stream.set_nonblocking(false).is_err()
    }

    /// Closes after ABORT: shuts the write side, waits up to `until` for the client's own close
    /// (discarding anything it still sends), then drops the socket.
    pub(super) fn close(self, until: Instant) {
        let _ = self.stream.shutdown(Shutdown::Write);
        if !self.alive {
            return;
        }
        let mut stream = self.stream;
        let mut sink = [0u8; 256];
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match stream.read(&mut sink) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
    }
}

/// Reads exactly `buf.len()` bytes from `stream` before `deadline`, skipping `\0`, CR and LF
/// before the first byte (none of them can start a move or a hello; a client that ends its hello
/// with a `\0` or a newline is understood). Waits in slices of [`POLL`] to see `stop`.
pub(super) fn read_exact_by(
    stream: &mut TcpStream,
    buf: &mut [u8],
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<(), ReadFailure> {
    let mut filled = 0;
    while filled < buf.len() {
        if stop.load(Ordering::SeqCst) {
            return Err(ReadFailure::Stopped);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadFailure::Timeout);
        }
        let slice = left.min(POLL).max(Duration::from_millis(1));
        if stream.set_read_timeout(Some(slice)).is_err() {
            return Err(ReadFailure::Gone);
        }
        match stream.read(&mut buf[filled..]) {
            Ok(0) => return Err(ReadFailure::Gone),
            Ok(n) => {
                if filled == 0 {
                    let skip = buf[..n]
                        .iter()
                        .take_while(|&&b| matches!(b, 0 | b'\r' | b'\n'))
                        .count();
                    buf.copy_within(skip..n, 0);
                    filled = n - skip;
                } else {
                    filled += n;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) => {}
            Err(_) => return Err(ReadFailure::Gone),
        }
    }
    Ok(())
}

/// Connections that may wait for their hello at once; more are refused until one is settled.
const MAX_PENDING: usize = 32;

/// An accepted connection waiting for its hello (non-blocking).
struct Pending {
    stream: TcpStream,
    peer: SocketAddr,
    deadline: Instant,
}

/// What a look at a pending connection found.
enum Hello {
    /// Its hello byte.
    Byte(u8),
    /// Nothing yet.
    Waiting,
    /// It closed or failed.
    Gone,
}

impl Pending {
    /// Reads the hello byte if it has come, without blocking, skipping `\0`, CR and LF before it
    /// as [`read_exact_by`] does.
    fn hello(&mut self) -> Hello {
        let mut byte = [0u8; 1];
        loop {
            match self.stream.read(&mut byte) {
                Ok(0) => return Hello::Gone,
                Ok(_) if matches!(byte[0], 0 | b'\r' | b'\n') => continue,
                Ok(_) => return Hello::Byte(byte[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Hello::Waiting,
                Err(_) => return Hello::Gone,
            }
        }
    }
}

/// Waits for a white and a red client: accepts connections (polling, to see `stop`), reads their
/// hellos all at once (a silent connection holds up no other) and seats each, refusing a bad
/// hello, one that does not come in time, or a colour already taken. `None` when stopped.
pub(super) fn seat_clients(
    listener: &TcpListener,
    config: &SessionConfig,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Option<[Seat; 2]>, ServerError> {
    listener
        .set_nonblocking(true)
        .map_err(ServerError::Accept)?;
    let mut seats: [Option<Seat>; 2] = [None, None];
    let mut pending: Vec<Pending> = Vec::new();
    loop {
        // A client seated earlier that has gone since gives its seat up, before the games start
        // with it as much as when another asks for its colour.
        for colour in [Side::First, Side::Second] {
            free_if_gone(&mut seats, colour, on_event);
        }
        if seats.iter().all(Option::is_some) {
            break;
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let mut busy = false;
        match listener.accept() {
            Ok((stream, peer)) => {
                busy = true;
                if pending.len() >= MAX_PENDING {
                    let reason = Refusal::TooManyWaiting;
                    on_event(Event::Refused { peer, reason });
                } else if stream.set_nonblocking(true).is_err()
                    || stream
                        .set_write_timeout(Some(config.write_timeout))
                        .is_err()
                {
                    let reason = Refusal::Socket;
                    on_event(Event::Refused { peer, reason });
                } else {
                    let _ = stream.set_nodelay(true);
                    let deadline = Instant::now() + config.hello_timeout;
                    pending.push(Pending {
                        stream,
                        peer,
                        deadline,
                    });
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) => {}
            // The client went away between its connect and our accept: not the listener's fault.
            Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => busy = true,
            Err(e) => return Err(ServerError::Accept(e)),
        }
        let mut i = 0;
        while i < pending.len() {
            let p = &mut pending[i];
            let hello = match p.hello() {
                Hello::Waiting if Instant::now() < p.deadline => {
                    i += 1;
                    continue;
                }
                Hello::Waiting => Err(Refusal::NoHello),
                Hello::Gone => Err(Refusal::GoneBeforeHello),
                Hello::Byte(b) => Ok(b),
            };
            let Pending { stream, peer, .. } = pending.swap_remove(i);
            busy = true;
            let hello = hello.and_then(|b| wire::parse_hello(b).ok_or(Refusal::BadHello(b)));
            let colour = match hello {
                Ok(colour) => colour,
                Err(reason) => {
                    on_event(Event::Refused { peer, reason });
                    continue;
                }
            };
            if stream.set_nonblocking(false).is_err() {
                let reason = Refusal::Socket;
                on_event(Event::Refused { peer, reason });
                continue;
            }
            seat(&mut seats, colour, stream, peer, on_event);
        }
        if !busy {
            std::thread::sleep(POLL);
        }
    }
    match seats {
        [Some(white), Some(red)] => Ok(Some([white, red])),
        _ => Ok(None),
    }
}

/// Frees `colour`'s seat when its client has closed its connection since it was seated.
fn free_if_gone(seats: &mut [Option<Seat>; 2], colour: Side, on_event: &mut dyn FnMut(Event<'_>)) {
    if let Some(old) = seats[idx(colour)].take_if(|old| old.closed()) {
        on_event(Event::Refused {
            peer: old.peer,
            reason: Refusal::LeftBeforeGames(colour),
        });
    }
}

/// Seats a client that said hello as `colour`, unless that colour is taken by a client still
/// there.
fn seat(
    seats: &mut [Option<Seat>; 2],
    colour: Side,
    stream: TcpStream,
    peer: SocketAddr,
    on_event: &mut dyn FnMut(Event<'_>),
) {
    free_if_gone(seats, colour, on_event);
    let seat = &mut seats[idx(colour)];
    if seat.is_some() {
        on_event(Event::Refused {
            peer,
            reason: Refusal::Taken(colour),
        });
        return;
    }
    *seat = Some(Seat {
        stream,
        peer,
        alive: true,
    });
    on_event(Event::Seated { colour, peer });
}
