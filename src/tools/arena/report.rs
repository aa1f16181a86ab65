//! A match's figures as text: the progress line, the closing report, and the JSON report.

use super::*;

/// The running figures, as the progress line shows them: W/D/L, score and Elo, with the same
/// wording as the report.
pub fn progress_text(tally: &Tally) -> String {
    format!(
        "+{} ={} -{}  score {:.1}%  Elo {}",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.elo_estimate()
    )
}

/// The closing report.
pub fn report(config: &MatchConfig, tally: &Tally, failures: &[(String, String)]) -> String {
    let mut s = headline(&config.a.name, &config.b.name, tally);
    if (tally.games() as usize) < config.shard_games() {
        let why = match &config.sprt {
            Some(sprt) if sprt.state(tally) != SprtState::Continue => "the SPRT decided",
            _ => "the match was stopped",
        };
        s.push_str(&format!(
            "stopped after {} of {} games: {why}\n",
            tally.games(),
            config.shard_games()
        ));
    }
    s.push_str(&statistics(tally));
    if let Some(sprt) = &config.sprt {
        s.push_str(&sprt_line(sprt, tally));
    }
    if failures.is_empty() {
        s.push_str("failures: none\n");
    } else {
        s.push_str(&format!("failures: {}\n", failures.len()));
        for (name, reason) in failures {
            s.push_str(&format!("  {name}: {reason}\n"));
        }
    }
    s
}

/// The report of games counted again from their records ([`super::recount()`]): the figures of
/// [`report()`] without the match's plan, and the games that ended by a forfeit.
pub fn recount_report(recount: &super::Recount, sprt: Option<&Sprt>) -> String {
    let mut s = headline(&recount.a, &recount.b, &recount.tally);
    s.push_str(&statistics(&recount.tally));
    if let Some(sprt) = sprt {
        s.push_str(&sprt_line(sprt, &recount.tally));
    }
    s.push_str(&format!(
        "games ended by a forfeit, a resignation or on time: {}\n",
        recount.forfeits
    ));
    s
}

/// The SPRT's line: its hypotheses, the LLR with its bounds, and the decision.
fn sprt_line(sprt: &Sprt, tally: &Tally) -> String {
    let (lo, hi) = sprt.bounds();
    let state = match sprt.state(tally) {
        SprtState::AcceptH1 => "H1 accepted",
        SprtState::AcceptH0 => "H0 accepted",
        SprtState::Continue => "undecided",
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {state}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        tally.llr(sprt.elo0, sprt.elo1),
        lo,
        hi
    )
}

/// The report's first line: the engines, W/D/L, score and average discs.
fn headline(a: &str, b: &str, tally: &Tally) -> String {
    format!(
        "{a} vs {b}: {} games, +{} ={} -{} (score {:.1}%), average discs {:+.2}\n",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.average_discs()
    )
}

/// The pentanomial counts and the Elo difference with its interval and LOS.
fn statistics(tally: &Tally) -> String {
    let mut s = format!(
        "pairs (0, 1/2, 1, 3/2, 2 points): {:?}, total {}; unpaired games: {}\n",
        tally.pentanomial,
        tally.pairs(),
        tally.unpaired_games()
    );
    let basis = tally
        .basis()
        .map_or(String::new(), |b| format!(", from {b}"));
    match tally.elo_estimate() {
        e @ stats::EloEstimate::Finite { .. } => s.push_str(&format!(
            "Elo difference: {e} (95%{basis}), LOS {:.1}%\n",
            100.0 * tally.los()
        )),
        e => s.push_str(&format!(
            "Elo difference: {e}{basis}, LOS {:.1}%\n",
            100.0 * tally.los()
        )),
    }
    s
}

/// The report as a JSON document (see docs/match.md for its fields).
pub fn json_report(config: &MatchConfig, tally: &Tally, failures: &[(String, String)]) -> String {
    use serde::Serialize;

    #[derive(Serialize)]
    struct Report<'a> {
        engines: [Engine<'a>; 2],
        tc: Tc,
        games: Games,
        wins: u32,
        draws: u32,
        losses: u32,
        score: f64,
        average_discs: f64,
        pentanomial: [u32; 5],
        pairs: u32,
        unpaired_games: u32,
        elo: Elo,
        los: f64,
        sprt: Option<SprtReport>,
        failures: Vec<FailureReport<'a>>,
    }
    #[derive(Serialize)]
    struct Engine<'a> {
        name: &'a str,
        kind: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        cmd: Option<&'a str>,
        args: &'a [String],
        options: Vec<[&'a str; 2]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        proto: Option<&'a str>,
    }
    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Tc {
        Clock { base_ms: u128, increment_ms: u128 },
        Movetime { ms: u128 },
        Depth { depth: u32 },
        Nodes { nodes: u64 },
    }
    #[derive(Serialize)]
    struct Games {
        planned: usize,
        played: u32,
        stopped_early: bool,
    }
    #[derive(Serialize)]
    struct Elo {
        /// "pairs", "games" or null (fewer than two samples).
        basis: Option<&'static str>,
        samples: u32,
        /// Null when unknown or unbounded.
        estimate: Option<f64>,
        /// Half-width of the 95% interval; null when unknown or unbounded.
        interval95: Option<f64>,
        unbounded: bool,
    }
    #[derive(Serialize)]
    struct SprtReport {
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        llr: f64,
        lower: f64,
        upper: f64,
        state: &'static str,
    }
    #[derive(Serialize)]
    struct FailureReport<'a> {
        engine: &'a str,
        reason: &'a str,
    }

    fn engine(spec: &EngineSpec) -> Engine<'_> {
        match &spec.kind {
            EngineKind::Random | EngineKind::Greedy => Engine {
                name: &spec.name,
                kind: if spec.kind == EngineKind::Random {
                    "random"
                } else {
                    "greedy"
                },
                cmd: None,
                args: &[],
                options: Vec::new(),
                proto: None,
            },
            EngineKind::Process {
                cmd,
                args,
                options,
                proto,
            } => Engine {
                name: &spec.name,
                kind: "process",
                cmd: Some(cmd),
                args,
                options: options.iter().map(|(n, v)| [n.as_str(), v]).collect(),
                proto: Some(match proto {
                    Proto::Wedge => "wedge",
                    Proto::Nboard => "nboard",
                    Proto::Gtp => "gtp",
                }),
            },
        }
    }
    let tc = match config.tc {
        TimeControl::Clock { base, increment } => Tc::Clock {
            base_ms: base.as_millis(),
            increment_ms: increment.as_millis(),
        },
        TimeControl::MoveTime(t) => Tc::Movetime { ms: t.as_millis() },
        TimeControl::Depth(depth) => Tc::Depth { depth },
        TimeControl::Nodes(nodes) => Tc::Nodes { nodes },
    };
    let (basis, samples) = match tally.basis() {
        Some(stats::Basis::Pairs(n)) => (Some("pairs"), n),
        Some(stats::Basis::Games(n)) => (Some("games"), n),
        None => (None, 0),
    };
    let elo = match tally.elo_estimate() {
        stats::EloEstimate::Finite { elo, half_width } => Elo {
            basis,
            samples,
            estimate: Some(elo),
            interval95: Some(half_width),
            unbounded: false,
        },
        stats::EloEstimate::NoSpread { elo } | stats::EloEstimate::Open { elo, .. } => Elo {
            basis,
            samples,
            estimate: Some(elo),
            interval95: None,
            unbounded: false,
        },
        e => Elo {
            basis,
            samples,
            estimate: None,
            interval95: None,
            unbounded: matches!(e, stats::EloEstimate::Unbounded { .. }),
        },
    };
    let sprt = config.sprt.map(|sprt| {
        let (lower, upper) = sprt.bounds();
        SprtReport {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr: tally.llr(sprt.elo0, sprt.elo1),
            lower,
            upper,
            state: match sprt.state(tally) {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "undecided",
            },
        }
    });
    let report = Report {
        engines: [engine(&config.a), engine(&config.b)],
        tc,
        games: Games {
            planned: config.shard_games(),
            played: tally.games(),
            stopped_early: (tally.games() as usize) < config.shard_games(),
        },
        wins: tally.wins,
        draws: tally.draws,
        losses: tally.losses,
        score: tally.score(),
        average_discs: tally.average_discs(),
        pentanomial: tally.pentanomial,
        pairs: tally.pairs(),
        unpaired_games: tally.unpaired_games(),
        elo,
        los: tally.los(),
        sprt,
        failures: failures
            .iter()
            .map(|(engine, reason)| FailureReport { engine, reason })
            .collect(),
    };
    // Serialising these plain structures cannot fail (no maps with non-string keys, no I/O).
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}
