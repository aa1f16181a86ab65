//! `wedge weights`: the evaluation in use, written as the files that load it again.

use clap::Subcommand;
use std::path::PathBuf;
use wedge::engine::options::Options;

/// What `wedge weights` does.
#[derive(Subcommand)]
pub enum WeightsAction {
    /// Print the evaluation's named weights as a weights file (with its `Evaluation` line), after
    /// loading --from files and --set values as the engine's options would; --patterns also writes
    /// the trained pattern weights in use. Loading both files again gives the same evaluation.
    Dump {
        /// A file to load first, as `setoption name EvalFile` loads it: trained pattern weights, a
        /// pattern network or a text weights file (repeatable, in order; each is checked, line by line for text).
        #[arg(long)]
        from: Vec<PathBuf>,
        /// A named weight to set after the files, NAME=VALUE (repeatable).
        #[arg(long = "set")]
        set: Vec<String>,
        /// The evaluation to dump for: trained (the default) or hand.
        #[arg(long)]
        evaluation: Option<String>,
        /// Also write the trained pattern weights in use to this file (the file `EvalFile` loads).
        #[arg(long)]
        patterns: Option<PathBuf>,
        /// Also write the built-in pattern tables to this file: the starting point of `wedge train
        /// --net`, and the weights a table fit continues from with `--init`.
        #[arg(long)]
        tables: Option<PathBuf>,
    },
}

/// Prints the weights, and writes the patterns when asked.
pub fn run(action: WeightsAction) -> Result<(), String> {
    let WeightsAction::Dump {
        from,
        set,
        evaluation,
        patterns,
        tables,
    } = action;
    let outputs: Vec<(&str, &std::path::Path)> = [("--patterns", &patterns), ("--tables", &tables)]
        .into_iter()
        .filter_map(|(flag, p)| Some((flag, p.as_deref()?)))
        .collect();
    super::check_outputs("weights dump", &outputs, from.iter().map(|p| p.as_path()))?;
    let mut options = Options::default();
    for path in &from {
        options
            .set("EvalFile", Some(&path.to_string_lossy()))
            .map_err(|e| format!("--from: {}", e.detail()))?;
    }
    for item in &set {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--set: '{item}' is not NAME=VALUE"))?;
        if wedge::eval::weights::Weights::find(name).is_none() {
            return Err(format!("--set: unknown weight '{name}'"));
        }
        options
            .set(name, Some(value))
            .map_err(|e| format!("--set: {}", e.detail()))?;
    }
    if let Some(kind) = &evaluation {
        options
            .set("Evaluation", Some(kind))
            .map_err(|e| format!("--evaluation: {}", e.detail()))?;
    }
    let source = if options.pattern_file.is_empty() {
        "the built-in network".to_string()
    } else {
        format!("patterns from {}", options.pattern_file)
    };
    if let Some(out) = &patterns {
        let weights = options
            .pattern
            .as_ref()
            .ok_or("--patterns: no trained pattern weights are loaded")?;
        super::write_atomically(out, weights.to_bytes()).map_err(|e| format!("--patterns: {e}"))?;
    }
    if let Some(out) = &tables {
        let weights =
            wedge::eval::built_in_patterns().ok_or("--tables: the built-in tables did not load")?;
        super::write_atomically(out, weights.to_bytes()).map_err(|e| format!("--tables: {e}"))?;
    }
    out!("{}", options.weights.dump(options.evaluation, &source));
    Ok(())
}
