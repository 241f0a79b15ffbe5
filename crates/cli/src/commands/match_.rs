//! `carc match A B`: two players over seeded games, with the seats swapped between the games
//! of a set (a pair with two players), and the result as a win rate, a margin and an Elo
//! difference with their intervals; optionally stopped early by an SPRT. A player is
//! `random`, `greedy`, `playout`, `engine[:nodes=N|:ms=T]` or `cmd:PROGRAM` (an outside engine
//! over the engine protocol, `docs/engine-protocol.md`).
//!
//! Set k is dealt from seed S+k; its P games (P players) put A in seat 0, 1, …, P−1 in turn
//! and B in every other seat. Games run on worker threads, one game each; results are read in
//! set order, so with node budgets the output is the same for any `--threads`.

use std::cell::{Cell, RefCell};
use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use carc_analysis::{PlayoutPlayer, QualityOptions};
use carc_engine::{EnginePlayer, SearchOptions};
use carc_events::{record_actions, write_log, Assertion, Header, Source};
use carc_rules::{Game, GiftAction, MapBoard, Setup, TileSet, TileTypeId};
use carc_sim::{play_versus, Buffers, GreedyPlayer, Player, PlayoutError, RandomPlayer, TurnMove};
use clap::Args;
use serde_json::{json, Value};

use crate::engine_client::{EngineClient, MatchStopped, StopSignal, MAX_WAIT_MS};
use crate::engine_protocol::{decision_text, listed_moves};
use crate::game_setup::{setup_digest, GameRules, RulesArgs};
use crate::match_stats::{sprt_bounds, sprt_llr, summarise};

#[derive(Args)]
pub struct MatchArgs {
    /// Player A: random, greedy, playout[:playouts=N], engine, engine:nodes=N, engine:ms=T, or
    /// cmd:PROGRAM (an outside engine; PROGRAM is split on whitespace, no shell).
    a: String,
    /// Player B, as A.
    b: String,
    /// Games to play at most (rounded up to whole sets of --players games dealt from one seed).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Players per game (2 to 6): A in one seat, B in the others.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    players: u8,
    /// Seed of the first set; set k is dealt from seed + k.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, one per thread (0 = every core). Engines search single-threaded.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// A folder to write every game's log to (match-s<seed>-<a|b|…>-<set-up digest>.jsonl).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// One JSON object on stdout instead of the text report.
    #[arg(long)]
    json: bool,
    /// Stop early by a sequential probability ratio test of ELO0 against ELO1 (A's Elo over
    /// B's; α = β = 0.05).
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        value_delimiter = ',',
        num_args = 1,
        allow_hyphen_values = true
    )]
    sprt: Vec<f64>,
    /// cmd: players: the time per move they are told (`budget ms T`), in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..=MAX_WAIT_MS))]
    cmd_ms: u64,
    /// cmd: players: how long after the budget carc still waits for an answer before it
    /// kills the engine, in milliseconds.
    #[arg(long, default_value_t = 5000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=MAX_WAIT_MS))]
    grace_ms: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Who plays a seat, as named on the command line.
#[derive(Clone, Debug, PartialEq)]
enum Spec {
    Random,
    Greedy,
    Playout(u32),
    Engine(SearchOptions),
    Cmd(String),
}

impl Spec {
    fn parse(s: &str) -> Result<Spec> {
        let number = |v: &str, what: &str| -> Result<u64> {
            match v.parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => bail!("player {s:?}: {what} must be a positive whole number"),
            }
        };
        Ok(match s {
            "random" => Spec::Random,
            "greedy" => Spec::Greedy,
            "playout" => Spec::Playout(carc_analysis::quality::DEFAULT_PLAYOUTS),
            "engine" => Spec::Engine(SearchOptions::default()),
            _ => {
                if let Some(program) = s.strip_prefix("cmd:") {
                    if program.split_whitespace().next().is_none() {
                        bail!("player {s:?}: cmd: names no program (cmd:PROGRAM [ARGS…])");
                    }
                    Spec::Cmd(program.trim().to_string())
                } else if let Some(spec) = s.strip_prefix("engine:") {
                    // engine:nodes=N, engine:ms=T and any of the engine's other options,
                    // comma-separated (carc_engine's spec: engine:nodes=2000,rollout=4).
                    Spec::Engine(
                        SearchOptions::from_spec(spec).map_err(|e| anyhow!("player {s:?}: {e}"))?,
                    )
                } else if let Some(n) = s.strip_prefix("playout:playouts=") {
                    let n = u32::try_from(number(n, "playouts")?)
                        .map_err(|_| anyhow!("player {s:?}: too many playouts"))?;
                    Spec::Playout(n)
                } else {
                    bail!(
                        "unknown player {s:?}; expected random, greedy, playout, playout:playouts=N, engine, engine:nodes=N, engine:ms=T, engine:KEY=VALUE,… or cmd:PROGRAM"
                    )
                }
            }
        })
    }
}

/// What every game of the match shares.
struct Match {
    a: Spec,
    b: Spec,
    a_text: String,
    b_text: String,
    players: u8,
    seed: u64,
    rules: GameRules,
    out: Option<PathBuf>,
    cmd_budget: Duration,
    grace: Duration,
    /// The index of the first game that failed (`usize::MAX`: none): the games after it are
    /// not played, and their outside engines that are waited for are ended at once. The games
    /// before it play on, so the error reported is the first game's in order, on any number
    /// of threads.
    first_failed: Arc<AtomicUsize>,
}

/// One game's result.
struct Played {
    game: String,
    seed: u64,
    a_seat: u8,
    scores: Vec<u32>,
}

impl Played {
    /// A's score minus the best other's.
    fn margin(&self) -> i64 {
        let a = i64::from(self.scores[usize::from(self.a_seat)]);
        let best_other = self
            .scores
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != usize::from(self.a_seat))
            .map(|(_, &v)| i64::from(v))
            .max()
            .unwrap_or(0);
        a - best_other
    }

    /// 1 a win, ½ a draw (a tie for the best score), 0 a loss.
    fn score(&self) -> f64 {
        match self.margin() {
            m if m > 0 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }

    fn result(&self) -> &'static str {
        match self.margin() {
            m if m > 0 => "win",
            0 => "draw",
            _ => "loss",
        }
    }
}

/// A decision of a game, as its players took them (for replaying the game up to now).
#[derive(Clone, Copy)]
enum Decision {
    Turn(TurnMove),
    Gift(Option<GiftAction>),
    GiveBack(TileTypeId),
}

type Transcript = Rc<RefCell<Vec<Decision>>>;

/// A seat whose decisions are written down in the game's transcript.
struct Recorded {
    inner: Box<dyn Player>,
    transcript: Transcript,
}

impl Player for Recorded {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn turn(&mut self, game: &Game, buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        let m = self.inner.turn(game, buffers)?;
        self.transcript.borrow_mut().push(Decision::Turn(m));
        Ok(m)
    }

    fn gift(
        &mut self,
        game: &Game,
        tile: TileTypeId,
        legal: &[GiftAction],
        buffers: &mut Buffers,
    ) -> Option<GiftAction> {
        let g = self.inner.gift(game, tile, legal, buffers);
        self.transcript.borrow_mut().push(Decision::Gift(g));
        g
    }

    fn give_back(
        &mut self,
        game: &Game,
        first: TileTypeId,
        second: TileTypeId,
        buffers: &mut Buffers,
    ) -> TileTypeId {
        let t = self.inner.give_back(game, first, second, buffers);
        self.transcript.borrow_mut().push(Decision::GiveBack(t));
        t
    }
}

/// Where a replay of the transcript stops: the decision being asked for now.
const END_OF_SCRIPT: &str = "the end of the transcript";

/// A seat that plays the transcript's decisions back (all seats share the cursor).
struct Script {
    decisions: Rc<Vec<Decision>>,
    next: Rc<Cell<usize>>,
}

impl Script {
    fn take(&self) -> Option<Decision> {
        let d = self.decisions.get(self.next.get()).copied();
        if d.is_some() {
            self.next.set(self.next.get() + 1);
        }
        d
    }
}

impl Player for Script {
    fn name(&self) -> String {
        "script".into()
    }

    fn turn(&mut self, _game: &Game, _buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        match self.take() {
            Some(Decision::Turn(m)) => Ok(m),
            _ => Err(PlayoutError::Position(END_OF_SCRIPT.into())),
        }
    }

    fn gift(
        &mut self,
        _game: &Game,
        _tile: TileTypeId,
        _legal: &[GiftAction],
        _buffers: &mut Buffers,
    ) -> Option<GiftAction> {
        match self.take() {
            Some(Decision::Gift(g)) => g,
            _ => None,
        }
    }

    fn give_back(
        &mut self,
        _game: &Game,
        first: TileTypeId,
        _second: TileTypeId,
        _buffers: &mut Buffers,
    ) -> TileTypeId {
        match self.take() {
            Some(Decision::GiveBack(t)) => t,
            _ => first,
        }
    }
}

/// An outside engine in a seat (`cmd:PROGRAM`). It is sent the game so far as a log, which it
/// gets by playing the transcript back from the seed.
struct CmdPlayer {
    program: String,
    client: Option<EngineClient>,
    transcript: Transcript,
    setup: Setup,
    seed: u64,
    header: Header,
    budget: Duration,
    grace: Duration,
    stop: StopSignal,
    /// The full error of a failed turn (the game's error only says the position could not be
    /// played on).
    error: Rc<RefCell<Option<anyhow::Error>>>,
    buffers: Buffers,
}

impl CmdPlayer {
    /// The game so far as log lines (header and events).
    fn position(&mut self, game: &Game) -> Result<String> {
        let decisions = Rc::new(self.transcript.borrow().clone());
        let next = Rc::new(Cell::new(0));
        let mut seats: Vec<Script> = (0..self.setup.players)
            .map(|_| Script {
                decisions: Rc::clone(&decisions),
                next: Rc::clone(&next),
            })
            .collect();
        let mut refs: Vec<&mut dyn Player> =
            seats.iter_mut().map(|s| s as &mut dyn Player).collect();
        let actions = match play_versus(self.setup.clone(), self.seed, &mut refs, &mut self.buffers)
        {
            Err(e) if e.error == PlayoutError::Position(END_OF_SCRIPT.into()) => e.actions,
            Err(e) => bail!("the game could not be played back: {e}"),
            Ok(_) => bail!("the game played back ended before this turn"),
        };
        let (log, replayed) = record_actions(
            self.header.clone(),
            Game::new(self.setup.clone())?,
            &actions,
        )?;
        if replayed.turn() != game.turn() || replayed.current_player() != game.current_player() {
            bail!("the game played back is not at this turn");
        }
        Ok(write_log(&log))
    }

    fn ask(&mut self, game: &Game) -> Result<TurnMove> {
        let at = format!(
            "game {}, turn {}, seat {}",
            self.header.game,
            game.turn(),
            game.current_player()
        );
        if self.client.is_none() {
            self.client = Some(
                EngineClient::start(&self.program, self.grace, self.stop.clone())
                    .with_context(|| format!("{at}: the engine did not start"))?,
            );
        }
        let log = self.position(game).with_context(|| at.clone())?;
        let moves = listed_moves(game);
        if moves.is_empty() {
            bail!("{at}: no move to ask the engine for");
        }
        let texts: Vec<String> = moves.iter().map(|(_, t)| t.clone()).collect();
        let text = decision_text(
            &log,
            game.current_player(),
            self.budget.as_millis() as u64,
            &texts,
        );
        let client = self.client.as_mut().expect("started");
        let i = client.ask(&text, &texts, self.budget, self.grace, &at)?;
        Ok(moves[i].0)
    }
}

impl Player for CmdPlayer {
    fn name(&self) -> String {
        format!("cmd:{}", self.program)
    }

    fn turn(&mut self, game: &Game, _buffers: &mut Buffers) -> Result<TurnMove, PlayoutError> {
        self.ask(game).map_err(|e| {
            let text = format!("{e:#}");
            *self.error.borrow_mut() = Some(e);
            PlayoutError::Position(text)
        })
    }
}

/// splitmix64, to give each seat of each game a seed of its own.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Match {
    /// Plays game `index` of the match, game `g` (A in seat `g`) of set `set`, unless an
    /// earlier game failed; a game that fails stops the games after it (their error is
    /// [`MatchStopped`]).
    fn play(&self, index: usize, set: u64, g: u8) -> Result<Played> {
        let stop = StopSignal {
            first_failed: Arc::clone(&self.first_failed),
            game: index,
        };
        if stop.is_set() {
            return Err(anyhow!(MatchStopped));
        }
        let played = self.play_game(set, g, stop);
        if let Err(e) = &played {
            if e.downcast_ref::<MatchStopped>().is_none() {
                self.first_failed.fetch_min(index, Ordering::Relaxed);
            }
        }
        played
    }

    fn play_game(&self, set: u64, g: u8, stop: StopSignal) -> Result<Played> {
        let seed = self.seed.wrapping_add(set);
        let letter = char::from(b'a' + g);
        let setup = self.rules.setup(self.players);
        let names: Vec<String> = (0..self.players)
            .map(|s| {
                if s == g {
                    self.a_text.clone()
                } else {
                    self.b_text.clone()
                }
            })
            .collect();
        let comment = format!(
            "played by carc {} match: seed {seed}, A = {} in seat {g}, B = {} in the other seats",
            env!("CARGO_PKG_VERSION"),
            self.a_text,
            self.b_text
        );
        let mut header = self.rules.header(
            String::new(),
            self.players,
            Some(Source::Simulated {
                seed,
                strategies: names,
            }),
            Some(comment),
        );
        // Unique across matches: the set-up's digest (players, rules, who plays which seat),
        // as a simulated game's id has it.
        let id = format!("match-s{seed}-{letter}-{}", setup_digest(&header));
        header.game = id.clone();
        let transcript: Transcript = Rc::new(RefCell::new(Vec::new()));
        let error: Rc<RefCell<Option<anyhow::Error>>> = Rc::new(RefCell::new(None));
        let mut seats: Vec<Recorded> = (0..self.players)
            .map(|s| {
                let spec = if s == g { &self.a } else { &self.b };
                // A and B draw from different streams; so do B's seats among themselves.
                let role = if s == g { 0 } else { 1 + u64::from(s) };
                let own = mix(mix(seed) ^ role);
                let inner: Box<dyn Player> = match spec {
                    Spec::Random => Box::new(RandomPlayer::new(own)),
                    Spec::Greedy => Box::new(GreedyPlayer),
                    Spec::Playout(n) => Box::new(PlayoutPlayer::new(QualityOptions {
                        playouts: *n,
                        seed: own,
                        threads: 1,
                        judge: carc_analysis::Judge::Playouts,
                        ..QualityOptions::default()
                    })),
                    Spec::Engine(options) => Box::new(EnginePlayer::new(SearchOptions {
                        threads: 1,
                        seed: own,
                        ..options.clone()
                    })),
                    Spec::Cmd(program) => Box::new(CmdPlayer {
                        program: program.clone(),
                        client: None,
                        transcript: Rc::clone(&transcript),
                        setup: setup.clone(),
                        seed,
                        header: header.clone(),
                        budget: self.cmd_budget,
                        grace: self.grace,
                        stop: stop.clone(),
                        error: Rc::clone(&error),
                        buffers: Buffers::default(),
                    }),
                };
                Recorded {
                    inner,
                    transcript: Rc::clone(&transcript),
                }
            })
            .collect();
        let mut refs: Vec<&mut dyn Player> =
            seats.iter_mut().map(|s| s as &mut dyn Player).collect();
        let played = play_versus(setup.clone(), seed, &mut refs, &mut Buffers::default());
        drop(refs);
        // The engines are told to quit now, before the log is written.
        drop(seats);
        let played = match played {
            Ok(p) => p,
            Err(e) => {
                if let Some(error) = error.borrow_mut().take() {
                    return Err(error);
                }
                bail!("game {id}: {e}");
            }
        };
        if let Some(dir) = &self.out {
            let (mut log, game) = record_actions(header, Game::new(setup)?, &played.actions)?;
            log.push_assertion(Assertion::ExpectFinalScores {
                scores: game.scores().to_vec(),
            });
            let path = dir.join(format!("{id}.jsonl"));
            crate::output_file::write_whole(&path, write_log(&log).as_bytes())?;
        }
        Ok(Played {
            game: id,
            seed,
            a_seat: g,
            scores: played.scores,
        })
    }
}

/// Why the reading of results stopped.
enum Stop {
    Sprt,
    Failed(anyhow::Error),
}

pub fn run_match(
    args: MatchArgs,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
    quiet: bool,
) -> Result<ExitCode> {
    let a = Spec::parse(&args.a)?;
    let b = Spec::parse(&args.b)?;
    let rules = GameRules::build(&args.rules, loaded, map)?;
    if rules.options.gifts && [&a, &b].iter().any(|s| matches!(s, Spec::Cmd(_))) {
        bail!(
            "cmd: players cannot play with The Gifts: the position an outside engine is sent is the log, which shows every player's hidden gift cards"
        );
    }
    let sprt = match args.sprt.as_slice() {
        [] => None,
        [e0, e1] if e0 < e1 => Some((*e0, *e1)),
        _ => bail!("--sprt takes ELO0,ELO1 with ELO0 below ELO1, e.g. --sprt 0,10"),
    };
    let per_set = u32::from(args.players);
    let sets = args.games.div_ceil(per_set);
    if let Some(dir) = &args.out {
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create folder {}", dir.display()))?;
    }
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let m = Match {
        a_text: args.a.clone(),
        b_text: args.b.clone(),
        a,
        b,
        players: args.players,
        seed: args.seed,
        rules,
        out: args.out.clone(),
        cmd_budget: Duration::from_millis(args.cmd_ms),
        grace: Duration::from_millis(args.grace_ms),
        first_failed: Arc::new(AtomicUsize::new(usize::MAX)),
    };
    let total = (sets * per_set) as usize;
    let bar = crate::progress::bar(quiet, total as u64, "games");
    let mut games: Vec<Played> = Vec::with_capacity(total);
    let mut set_scores: Vec<f64> = Vec::new();
    let mut decided: Option<(f64, &'static str)> = None;
    let outcome = carc_in_order::map_in_order(
        total,
        threads,
        threads * 2,
        |i| {
            m.play(
                i,
                (i / per_set as usize) as u64,
                (i % per_set as usize) as u8,
            )
        },
        |i, r| {
            let played = match r {
                Ok(Ok(p)) => p,
                // Cut short by an earlier game's failure, consumed (and reported) before this
                // one; kept apart all the same, so that it can never be the error reported.
                Ok(Err(e)) if e.downcast_ref::<MatchStopped>().is_some() => return Ok(()),
                Ok(Err(e)) => return Err(Stop::Failed(e)),
                Err(panic) => return Err(Stop::Failed(anyhow!("game {i}: {panic}"))),
            };
            games.push(played);
            bar.inc(1);
            if games.len() == (set_scores.len() + 1) * per_set as usize {
                let set = &games[games.len() - per_set as usize..];
                set_scores.push(set.iter().map(Played::score).sum::<f64>() / f64::from(per_set));
                let a_points: f64 = games.iter().map(Played::score).sum();
                bar.set_message(format!(
                    "A {a_points} – {} B",
                    games.len() as f64 - a_points
                ));
                if let Some((e0, e1)) = sprt {
                    let llr = sprt_llr(&set_scores, e0, e1);
                    let (lower, upper) = sprt_bounds();
                    if llr >= upper {
                        decided = Some((llr, "H1"));
                        return Err(Stop::Sprt);
                    }
                    if llr <= lower {
                        decided = Some((llr, "H0"));
                        return Err(Stop::Sprt);
                    }
                }
            }
            Ok(())
        },
    );
    bar.finish_and_clear();
    match outcome {
        Ok(()) | Err(Stop::Sprt) => {}
        Err(Stop::Failed(e)) => return Err(e),
    }
    let report = report(&m, &args, &games, &set_scores, sprt, decided);
    if args.json {
        println!("{report}");
    } else {
        print_text(&report);
    }
    if !quiet {
        if let Some(dir) = &args.out {
            eprintln!("carc: wrote {} games to {}", games.len(), dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A finite number, else JSON's null (an Elo difference of ±∞ after all wins or losses).
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

fn report(
    m: &Match,
    args: &MatchArgs,
    games: &[Played],
    set_scores: &[f64],
    sprt: Option<(f64, f64)>,
    decided: Option<(f64, &'static str)>,
) -> Value {
    let count = |r: &str| games.iter().filter(|g| g.result() == r).count();
    let s = summarise(set_scores);
    let mean_margin = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| g.margin() as f64).sum::<f64>() / games.len() as f64
    };
    let (lower, upper) = sprt_bounds();
    let sprt = sprt.map(|(e0, e1)| {
        let llr = decided.map_or_else(|| sprt_llr(set_scores, e0, e1), |(l, _)| l);
        json!({
            "elo0": e0,
            "elo1": e1,
            "alpha": 0.05,
            "beta": 0.05,
            "llr": llr,
            "bounds": [lower, upper],
            "result": decided.map_or("inconclusive", |(_, h)| h),
        })
    });
    json!({
        "a": args.a,
        "b": args.b,
        "players": m.players,
        "games": games.len(),
        "sets": set_scores.len(),
        "seeds": [m.seed, m.seed.wrapping_add(set_scores.len().saturating_sub(1) as u64)],
        "wins": count("win"),
        "draws": count("draw"),
        "losses": count("loss"),
        "win_rate": s.score,
        "win_rate_ci95": [s.score_ci95.0, s.score_ci95.1],
        "mean_margin": mean_margin,
        "elo": finite(s.elo),
        "elo_ci95": [finite(s.elo_ci95.0), finite(s.elo_ci95.1)],
        "variance": "pentanomial",
        "sprt": sprt,
        "results": games.iter().map(|g| json!({
            "game": g.game,
            "seed": g.seed,
            "a_seat": g.a_seat,
            "scores": g.scores,
            "margin": g.margin(),
            "result": g.result(),
        })).collect::<Vec<_>>(),
    })
}

fn print_text(r: &Value) {
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    // From the score fraction, so that ±∞ (null in JSON) keeps its sign here.
    let elo = |v: &Value| {
        let e = crate::match_stats::elo(f(v));
        if e.is_finite() {
            // + 0.0: no "-0.0".
            format!("{:+.1}", e + 0.0)
        } else {
            format!("{}inf", if e > 0.0 { "+" } else { "-" })
        }
    };
    let sets = r["sets"].as_u64().unwrap_or(0);
    let players = r["players"].as_u64().unwrap_or(2);
    let sets = match (players, sets) {
        (2, 1) => "1 pair".to_string(),
        (2, n) => format!("{n} pairs"),
        (p, 1) => format!("1 set of {p}"),
        (p, n) => format!("{n} sets of {p}"),
    };
    println!(
        "A = {}, B = {}: {} games of {players} players ({sets}, seeds {} to {})",
        r["a"].as_str().unwrap_or(""),
        r["b"].as_str().unwrap_or(""),
        r["games"],
        r["seeds"][0],
        r["seeds"][1],
    );
    println!(
        "A: {} wins, {} draws, {} losses",
        r["wins"], r["draws"], r["losses"]
    );
    println!(
        "A's win rate: {:.1}% (95%: {:.1}% to {:.1}%; a draw counts half)",
        100.0 * f(&r["win_rate"]),
        100.0 * f(&r["win_rate_ci95"][0]),
        100.0 * f(&r["win_rate_ci95"][1])
    );
    println!(
        "A's mean margin: {:+.1} points (A's score minus the best other's)",
        f(&r["mean_margin"])
    );
    println!(
        "Elo, A over B: {} (95%: {} to {}; variance over the sets of games)",
        elo(&r["win_rate"]),
        elo(&r["win_rate_ci95"][0]),
        elo(&r["win_rate_ci95"][1])
    );
    if let Some(s) = r["sprt"].as_object() {
        let verdict = match s["result"].as_str() {
            Some("H1") => format!(
                "H1 accepted: A is about {} Elo stronger, or more",
                s["elo1"]
            ),
            Some("H0") => format!(
                "H0 accepted: A is about {} Elo stronger, or less",
                s["elo0"]
            ),
            _ => "inconclusive after every game allowed".to_string(),
        };
        println!(
            "SPRT {} against {}: LLR {:.2} (bounds {:.2}, {:.2}): {verdict}",
            s["elo0"],
            s["elo1"],
            f(&s["llr"]),
            f(&s["bounds"][0]),
            f(&s["bounds"][1])
        );
    }
}
