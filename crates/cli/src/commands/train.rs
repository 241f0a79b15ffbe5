//! `carc train`: learns the weights of the engine's `eval=outlook` value by self-play (TD(λ),
//! `docs/engine.md`, "Weights learned by self-play") and writes them as a weights file with
//! their provenance: the command, the seeds, the games, the commit given.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use carc_engine::{train, TrainingPlan, Weights, FEATURE_NAMES};
use clap::Args;

#[derive(Args)]
pub struct TrainArgs {
    /// Games of self-play (2-player base games).
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the first game; game k is dealt from seed + k.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// TD(λ)'s trace decay, 0 to 1.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// The step size of the first game (above 0); it falls linearly to a tenth by the last.
    #[arg(long, default_value_t = 2e-4)]
    alpha: f64,
    /// Start from this weights file instead of the untrained weights.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// The commit the trainer was built from, written into the provenance (for instance
    /// `--commit $(git rev-parse --short HEAD)`).
    #[arg(long, default_value = "not given")]
    commit: String,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: TrainArgs, quiet: bool) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda {} is not between 0 and 1", args.lambda);
    }
    if !(args.alpha.is_finite() && args.alpha > 0.0) {
        bail!("--alpha {} is not a number above 0", args.alpha);
    }
    let start = match &args.from {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            Weights::from_json(&text).with_context(|| format!("{}", file.display()))?
        }
        None => Weights::untrained(),
    };
    let plan = TrainingPlan {
        games: args.games,
        seed: args.seed,
        lambda: args.lambda,
        alpha: args.alpha,
        start,
    };
    let bar = crate::progress::bar(quiet, u64::from(args.games), "games");
    // Every tenth of the run, the weights so far and how far values still were from their
    // successors (mean |δ| over those games): a run that does not settle shows it.
    let report_every = (args.games / 10).max(1);
    let mut deltas = 0.0;
    let mut weights = train(&plan, |game, weights| {
        bar.inc(1);
        deltas += game.mean_abs_delta;
        if !quiet && (game.game + 1) % report_every == 0 {
            let shown: Vec<String> = FEATURE_NAMES
                .iter()
                .zip(weights.weights)
                .map(|(n, w)| format!("{n} {w:.3}"))
                .collect();
            bar.suspend(|| {
                eprintln!(
                    "game {}: mean |δ| {:.2}; {}",
                    game.game + 1,
                    deltas / f64::from(report_every),
                    shown.join(", ")
                )
            });
            deltas = 0.0;
        }
    })
    .context("self-play")?;
    bar.finish_and_clear();
    let mut command = format!(
        "carc train --games {} --seed {} --lambda {} --alpha {}",
        args.games, args.seed, args.lambda, args.alpha
    );
    if let Some(from) = &args.from {
        command += &format!(" --from {}", from.display());
    }
    weights.provenance = vec![
        ("command".into(), command),
        (
            "seeds".into(),
            format!(
                "{}..={}",
                args.seed,
                args.seed.wrapping_add(u64::from(args.games) - 1)
            ),
        ),
        ("games".into(), args.games.to_string()),
        (
            "game".into(),
            "2-player base game, both seats the value's one-ply player".into(),
        ),
        ("commit".into(), args.commit.clone()),
        ("carc".into(), env!("CARGO_PKG_VERSION").into()),
    ];
    std::fs::write(&args.out, weights.to_json())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {} ({} games)", args.out.display(), args.games);
    Ok(ExitCode::SUCCESS)
}
