//! The record shell, `carc record GAME`: opens the store once, naming itself as its holder,
//! and runs lines of the verbs without the game (`draw V`, `place 1 0 90 city N`, `undo
//! --turn`), parsed by the verbs' own clap definitions and run by [`run_verb`], the code of
//! `carc record VERB`: the same checks, messages and refusals, and a refused line stores
//! nothing. On a terminal, rustyline edits the line, keeps the history (in memory only) and
//! completes the legal moves (`complete`); lines piped in are read plainly, so that a script
//! can feed a game in, and a refused one makes the exit code 1 at the end.

use std::borrow::Cow;
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Result};
use carc_archive::{check_game_id, read_game};
use carc_events::Header;
use carc_replay::describe::shown_name;
use carc_replay::fold;
use carc_replay::gifts::{opening_words, openings, receivable_cards};
use carc_rules::{Game, MapBoard, Phase, TileSet};
use carc_store::Store;
use clap::{CommandFactory, Parser};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use crate::commands::record::complete::complete;
use crate::commands::record::hint::hint;
use crate::commands::record::phase::phase_text;
use crate::commands::record::picture::{legal_squares, show, square_lines};
use crate::commands::record::{run_verb, RecordCmd};
use crate::exit_code;
use crate::store_context::Ctx;

/// A line of the shell: a verb of `carc record` and its arguments, the game put in by the
/// shell.
#[derive(Parser)]
#[command(
    name = "record shell",
    no_binary_name = true,
    disable_help_subcommand = true,
    disable_version_flag = true
)]
struct ShellLine {
    #[command(subcommand)]
    verb: RecordCmd,
}

/// The names of the verbs, as `help` lists them and Tab completes them.
fn verb_names() -> Vec<(String, String)> {
    ShellLine::command()
        .get_subcommands()
        .map(|c| {
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            (c.get_name().to_string(), about)
        })
        .collect()
}

/// What a line did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Ran (or showed something).
    Done,
    /// Refused: nothing was stored.
    Refused,
    /// `quit` or `exit`.
    Quit,
}

/// The shell on `game`: the store is opened once, for the whole session.
pub fn shell(
    ctx: &Ctx,
    game: &str,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
) -> Result<ExitCode> {
    check_game_id(game).map_err(anyhow::Error::msg)?;
    let store = ctx.open_as(&format!("carc record shell on game {game}"))?;
    let session = Session {
        ctx,
        store: &store,
        game,
        loaded,
        map,
    };
    // At a terminal the player saw each refusal and went on: leaving is a success. A script
    // sees none of them, so the exit code tells it.
    let refused = if std::io::stdin().is_terminal() {
        session.interactive()?;
        false
    } else {
        session.piped()?
    };
    Ok(if refused {
        ExitCode::from(exit_code::ILLEGAL)
    } else {
        ExitCode::SUCCESS
    })
}

/// The state of the game, as the prompt and the completion see it.
pub struct Now {
    pub header: Header,
    pub game: Game,
    /// The number of the last event recorded.
    pub at: u64,
    /// The turn the next move belongs to.
    pub turn: u32,
}

pub struct Session<'a> {
    pub ctx: &'a Ctx,
    pub store: &'a Store,
    pub game: &'a str,
    pub loaded: &'a [TileSet],
    /// The board of the global `--map`, for a `new` line.
    pub map: Option<&'a Arc<MapBoard>>,
}

impl Session<'_> {
    /// Lines from a pipe or a file: each run in turn, no prompt. Whether one was refused.
    fn piped(&self) -> Result<bool> {
        let mut refused = false;
        for line in std::io::stdin().lock().lines() {
            match self.line(&line?) {
                Outcome::Done => {}
                Outcome::Refused => refused = true,
                Outcome::Quit => break,
            }
        }
        Ok(refused)
    }

    /// Lines typed at a terminal, with completion and history, until `quit` or Ctrl-D.
    fn interactive(&self) -> Result<()> {
        // As a Unix shell completes: Tab fills in what the candidates share, a second Tab
        // lists them (rustyline's default cycles through them instead).
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .auto_add_history(false)
            .build();
        let mut editor: Editor<ShellHelper, DefaultHistory> = Editor::with_config(config)?;
        editor.set_helper(Some(ShellHelper {
            verbs: verb_names().into_iter().map(|(n, _)| n).collect(),
            now: None,
        }));
        println!(
            "carc record shell on game {} (store {}): `help` lists the verbs, Tab completes \
             the legal moves, `quit` or Ctrl-D leaves",
            self.game,
            self.ctx.store_dir.display()
        );
        if let Some(now) = self.now() {
            println!("{}", hint(self.game, now.at, &now.header, &now.game));
        }
        loop {
            let now = self.now();
            let prompt = prompt(self.game, now.as_ref());
            if let Some(h) = editor.helper_mut() {
                h.now = now.map(|n| n.game);
            }
            let line = match editor.readline(&prompt) {
                Ok(line) => line,
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => break,
                Err(e) => return Err(e.into()),
            };
            if !line.trim().is_empty() {
                editor.add_history_entry(line.as_str())?;
            }
            match self.line(&line) {
                Outcome::Done | Outcome::Refused => {}
                Outcome::Quit => break,
            }
        }
        Ok(())
    }

    /// The stored game's state now; `None` when there is no such game yet, or it does not
    /// replay (the verbs then say why).
    pub fn now(&self) -> Option<Now> {
        let sg = read_game(self.store, self.game).ok()??;
        let timeline = fold(sg.effective_log().ok()?, self.loaded);
        let game = timeline.state_at(timeline.steps.len()).ok()?;
        // A draw begins the next turn; any other step is of the turn of the last event.
        let last = timeline.steps.last().map_or(0, |s| s.turn);
        Some(Now {
            at: timeline.log.last_seq(),
            turn: if game.phase() == Phase::Draw {
                last + 1
            } else {
                last
            },
            header: timeline.log.header,
            game,
        })
    }

    /// Runs one line and prints what it did, as the verb would.
    pub fn line(&self, line: &str) -> Outcome {
        match self.run(line) {
            Ok(outcome) => outcome,
            Err(e) => {
                eprintln!("carc: {e:#}");
                Outcome::Refused
            }
        }
    }

    fn run(&self, line: &str) -> Result<Outcome> {
        let Some(words) = shlex::split(line) else {
            bail!("unbalanced quotes in {line:?}; nothing was recorded");
        };
        let Some(first) = words.first() else {
            return Ok(Outcome::Done);
        };
        match first.as_str() {
            "quit" | "exit" => return Ok(Outcome::Quit),
            "help" => {
                println!("{}", help_text());
                return Ok(Outcome::Done);
            }
            "show" | "legal" => {
                let Some(now) = self.now() else {
                    bail!(
                        "no game {:?} in the store yet: `new --players A,B` starts it",
                        self.game
                    );
                };
                let due = hint(self.game, now.at, &now.header, &now.game);
                if first == "show" {
                    print!("{}", show(&now.game, &due));
                } else {
                    print!("{}", legal_text(&now.game));
                    println!("{due}");
                }
                return Ok(Outcome::Done);
            }
            _ => {}
        }
        // The verb's own words, with the game put in after the verb.
        let mut argv: Vec<String> = Vec::with_capacity(words.len() + 1);
        argv.push(first.clone());
        argv.push(self.game.to_string());
        argv.extend(words[1..].iter().cloned());
        let cmd = match ShellLine::try_parse_from(&argv) {
            Ok(parsed) => parsed.verb,
            Err(e) if !e.use_stderr() => {
                // --help of a verb: its help, on stdout.
                print!("{}", e.render());
                return Ok(Outcome::Done);
            }
            Err(e) => {
                eprint!("{}", e.render());
                return Ok(Outcome::Refused);
            }
        };
        let code = run_verb(self.ctx, self.store, cmd, self.loaded, self.map)?;
        Ok(if code == ExitCode::SUCCESS {
            Outcome::Done
        } else {
            Outcome::Refused
        })
    }
}

/// `GAME t12 Alice place V> `: the game, the turn, who is to move and what is due.
fn prompt(game: &str, now: Option<&Now>) -> String {
    let Some(now) = now else {
        return format!("{game} (new --players A,B)> ");
    };
    let who: String = shown_name(&now.header, now.game.current_player())
        .chars()
        .take(24)
        .collect();
    let due: Cow<str> = match now.game.phase() {
        Phase::Draw => "draw".into(),
        Phase::Place { tile } => format!("place {}", now.game.tiles().get(tile).id).into(),
        Phase::Meeple { .. } => "meeple".into(),
        Phase::ChooseArrow { .. } => "arrow".into(),
        Phase::ReceiveGift { .. } => "gift".into(),
        Phase::DrawSecond { .. } => "draw (Take 2)".into(),
        Phase::ReturnTile { .. } => "return".into(),
        Phase::Over => "over".into(),
        Phase::Start => "start".into(),
    };
    format!("{game} t{} {who} {due}> ", now.turn)
}

/// What `legal` prints: the drawn tile's legal squares and rotations, or the spots of the
/// meeple step, or the letters still in the bag.
fn legal_text(game: &Game) -> String {
    match game.phase() {
        Phase::Place { .. } => {
            let squares = legal_squares(game);
            let mut text: String = if squares.is_empty() {
                "no legal placement: `set-aside`\n".into()
            } else {
                square_lines(&squares)
            };
            // The Gifts: the gifts that may be opened first, as `open` takes them.
            for o in openings(game) {
                if let Some(words) = opening_words(&o.event) {
                    text.push_str(&format!("or first: open {}\n", words.join(" ")));
                }
            }
            text
        }
        Phase::ReceiveGift { .. } => {
            let cards: Vec<&str> = receivable_cards(game).iter().map(|c| c.name()).collect();
            format!("the gift deck can deal: {}\n", cards.join(" "))
        }
        Phase::Meeple { .. } => format!(
            "{}\n",
            crate::commands::record::complete::spot_phrases(game).join(", ")
        ),
        Phase::Draw => format!(
            "in the bag: {}\n",
            crate::commands::record::complete::bag_letters(game).join(" ")
        ),
        _ => format!("{}\n", phase_text(game)),
    }
}

fn help_text() -> String {
    let mut out = String::from(
        "The verbs of `carc record`, without the game (`VERB --help` for one's arguments):\n",
    );
    for (name, about) in verb_names() {
        let first = about.split(". ").next().unwrap_or("").trim_end_matches('.');
        out.push_str(&format!("  {name:<13} {first}\n"));
    }
    out.push_str(
        "And the shell's own: show (the board with the drawn tile's legal squares), legal (the \
         legal moves), help, quit or exit (or Ctrl-D).\n\
         Tab completes verbs, tile letters, squares, rotations and spots (and with The Gifts \
         the cards and their targets). The history is kept \
         in memory for this session only.",
    );
    out
}

/// rustyline's helper: completion from the current state, nothing else.
pub struct ShellHelper {
    pub verbs: Vec<String>,
    pub now: Option<Game>,
}

impl Completer for ShellHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, found) = complete(self.now.as_ref(), &self.verbs, &line[..pos]);
        let pairs = found
            .into_iter()
            // A space after a completed word, so that Tab goes on to the next one.
            .map(|c| Pair {
                replacement: format!("{c} "),
                display: c,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ShellHelper {
    type Hint = String;
}
impl Highlighter for ShellHelper {}
impl Validator for ShellHelper {}
impl Helper for ShellHelper {}
