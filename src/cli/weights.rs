//! `wedge weights`: the evaluation weights as a weights file.

use clap::Subcommand;
use std::path::PathBuf;
use wedge::eval::weights::Weights;

/// What `wedge weights` does.
#[derive(Subcommand)]
pub enum WeightsAction {
    /// Print the weights (built-in, or those of --from after loading it) as a weights file.
    Dump {
        /// A weights file to load first (it is checked line by line).
        #[arg(long)]
        from: Option<PathBuf>,
    },
}

/// Prints the weights: the built-in ones, or those of a file after loading it.
pub fn run(action: WeightsAction) -> Result<(), String> {
    let WeightsAction::Dump { from } = action;
    match from {
        None => {
            print!("{}", Weights::default().dump());
            Ok(())
        }
        Some(path) => Weights::load(&path)
            .map(|w| print!("{}", w.dump()))
            .map_err(|e| e.to_string()),
    }
}
