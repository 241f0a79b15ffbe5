//! carc driving an outside engine over the engine protocol (`docs/engine-protocol.md`): the
//! `cmd:PROGRAM` players of `carc match`. The engine is untrusted: every read has a deadline
//! (the move's budget plus a grace period; the greeting 10 s plus the grace), every line read
//! is bounded ([`MAX_ENGINE_LINE`]), and a crash, a silence, garbage or a move not listed is
//! an error naming the engine, the position and what was expected. An engine that misses
//! its deadline is killed. Writes go through a thread of their own, so an engine that stops
//! reading cannot block carc either. Each engine runs in a process group of its own, and the
//! whole group is ended with it: a wrapper script's engine, or a helper the engine forked,
//! does not outlive the game.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

use crate::engine_protocol::{LineError, HELLO, MAX_ENGINE_LINE};

/// How long an engine has to greet, on top of the grace period: starting a program (an
/// interpreter, a network) may take a while.
pub const STARTUP: Duration = Duration::from_secs(10);
/// How long an engine told to quit has before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// Bytes of the engine's stderr kept to quote when it fails.
const STDERR_TAIL: usize = 2048;
/// The most `--cmd-ms` and `--grace-ms` may each be: an hour (carc never waits for ever).
pub const MAX_WAIT_MS: u64 = 3_600_000;
/// How often a wait for a line also looks whether the engine exited or the match stopped.
const POLL: Duration = Duration::from_millis(20);
/// How long a line written just before the engine exited may take to come through.
const LAST_WORDS: Duration = Duration::from_millis(200);

/// When a game's waits give up: once a game before it in the match's order has failed (its
/// error is the one reported, so the games after it need not be waited out).
#[derive(Clone, Debug)]
pub struct StopSignal {
    /// The index of the first game that failed so far (`usize::MAX`: none).
    pub first_failed: Arc<AtomicUsize>,
    /// This game's index.
    pub game: usize,
}

impl StopSignal {
    pub fn is_set(&self) -> bool {
        self.first_failed.load(Ordering::Relaxed) < self.game
    }
}

/// The error of a game cut short because an earlier game of the match failed (its error is
/// the one to report).
#[derive(Debug)]
pub struct MatchStopped;

impl std::fmt::Display for MatchStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the match stopped: an earlier game failed")
    }
}

impl std::error::Error for MatchStopped {}

/// A line from the engine as text for a message: quoted, escaped, shortened.
fn quoted(line: &str) -> String {
    const MAX: usize = 120;
    let short: String = line.chars().take(MAX).collect();
    let more = if line.chars().count() > MAX {
        "…"
    } else {
        ""
    };
    format!("{short:?}{more}")
}

/// A running outside engine that has greeted.
pub struct EngineClient {
    /// The command line, for messages.
    pub program: String,
    child: Child,
    to_engine: Option<Sender<String>>,
    /// The engine's stdout as it came (chunks of bytes), from a thread that reads it; the
    /// channel closes at its end.
    from_engine: Receiver<io::Result<Vec<u8>>>,
    /// Bytes received and not yet taken as lines.
    pending: Vec<u8>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// When the match stops: a wait gives up at once.
    stop: StopSignal,
    /// Killed, or known to have exited.
    gone: bool,
}

impl EngineClient {
    /// Starts `program` (split on whitespace: the program, then its arguments; no shell) and
    /// waits for its greeting (`ready`), at most [`STARTUP`] + `grace`, or until `stop` is set
    /// (then the error is [`MatchStopped`], as for any later wait).
    pub fn start(program: &str, grace: Duration, stop: StopSignal) -> Result<EngineClient> {
        let mut words = program.split_whitespace();
        let Some(exe) = words.next() else {
            bail!("cmd: names no program (expected cmd:PROGRAM [ARGS…])");
        };
        let mut command = Command::new(exe);
        command.args(words);
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own (its id is the engine's pid), so that it can be ended whole.
            command.process_group(0);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| anyhow!("cannot start the engine `{program}`: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let to_engine = writer(stdin);
        // Raw chunks, cut into lines by the receiving side: lines the engine wrote together
        // arrive together, so what is left after an answer is known to be left over.
        let (tx, from_engine) = mpsc::sync_channel(256);
        thread::spawn(move || {
            let mut stdout = stdout;
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        if tx.send(Ok(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let kept = Arc::clone(&tail);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                let mut t = kept.lock().unwrap_or_else(|p| p.into_inner());
                t.extend(&buf[..n]);
                let over = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..over);
            }
        });
        let mut client = EngineClient {
            program: program.to_string(),
            child,
            to_engine: Some(to_engine),
            from_engine,
            pending: Vec::new(),
            stderr: tail,
            stop,
            gone: false,
        };
        client.send(&format!("{HELLO}\n"));
        let deadline = Instant::now() + STARTUP + grace;
        loop {
            let within = format!(
                "{} ms (start-up {} s + grace {} ms)",
                (STARTUP + grace).as_millis(),
                STARTUP.as_secs(),
                grace.as_millis()
            );
            let line = match client.next_line(deadline, &within) {
                Ok(line) => line,
                Err(Wait::Stopped) => return Err(anyhow!(MatchStopped)),
                Err(Wait::Failed(e)) => return Err(client.failure("at its start", &e, "`ready`")),
            };
            let word = line.split_whitespace().next().unwrap_or("");
            match word {
                "ready" => return Ok(client),
                "" | "id" | "info" => {}
                "error" => {
                    let e = format!("it reported an error: {}", quoted(line[5..].trim()));
                    return Err(client.failure("at its start", &e, "`ready`"));
                }
                _ => {
                    let e = format!("it wrote {}", quoted(&line));
                    return Err(client.failure("at its start", &e, "`ready`"));
                }
            }
        }
    }

    /// Sends one decision (`text`: from `position` to `go`) and returns the index in `moves`
    /// of the engine's `bestmove`. `budget` + `grace` is the deadline; `at` names the
    /// position for messages (game id, turn, seat).
    pub fn ask(
        &mut self,
        text: &str,
        moves: &[String],
        budget: Duration,
        grace: Duration,
        at: &str,
    ) -> Result<usize> {
        let expected = format!(
            "`bestmove MOVE` with one of the {} moves listed, after any `info` lines",
            moves.len()
        );
        if self.gone {
            return Err(self.failure(at, "it is no longer running", &expected));
        }
        // What is left over from the last decision (a second `bestmove`, late `info` lines,
        // written with the answer or received since) is no answer to this one.
        self.pending.clear();
        while let Ok(Ok(_)) = self.from_engine.try_recv() {}
        self.send(text);
        let deadline = Instant::now() + budget + grace;
        let within = format!(
            "{} ms (budget {} ms + grace {} ms)",
            (budget + grace).as_millis(),
            budget.as_millis(),
            grace.as_millis()
        );
        loop {
            let line = match self.next_line(deadline, &within) {
                Ok(line) => line,
                Err(Wait::Stopped) => return Err(anyhow!(MatchStopped)),
                Err(Wait::Failed(e)) => return Err(self.failure(at, &e, &expected)),
            };
            let (word, rest) = line
                .split_once(' ')
                .map_or((line.as_str(), ""), |(w, r)| (w, r));
            match word {
                "" | "info" => {}
                "bestmove" => {
                    let mv = rest.trim();
                    return match moves.iter().position(|m| m == mv) {
                        Some(i) => Ok(i),
                        None => Err(self.failure(
                            at,
                            &format!("it chose {}, which is not a listed move", quoted(mv)),
                            &expected,
                        )),
                    };
                }
                "error" => {
                    let e = format!("it reported an error: {}", quoted(rest.trim()));
                    return Err(self.failure(at, &e, &expected));
                }
                _ => {
                    let e = format!("it wrote {}", quoted(&line));
                    return Err(self.failure(at, &e, &expected));
                }
            }
        }
    }

    fn send(&mut self, text: &str) {
        if let Some(to) = &self.to_engine {
            let _ = to.send(text.to_string());
        }
    }

    /// The next line before `deadline` (`within` says it in words), or why there is none (the
    /// engine is then ended, or known to be gone). While it waits it looks every [`POLL`]
    /// whether the engine exited (a program that forks a helper holding its output and exits
    /// is no engine any more) and whether the match stopped.
    fn next_line(&mut self, deadline: Instant, within: &str) -> Result<String, Wait> {
        let mut exited: Option<(std::process::ExitStatus, Instant)> = None;
        loop {
            if self.stop.is_set() {
                self.kill();
                return Err(Wait::Stopped);
            }
            let now = Instant::now();
            let until = match exited {
                Some((_, at)) => deadline.min(at + LAST_WORDS),
                None => deadline,
            };
            if now >= until {
                return Err(Wait::Failed(match exited {
                    Some((status, _)) => {
                        self.kill();
                        format!("it exited ({status}) before answering")
                    }
                    None => {
                        self.kill();
                        format!("no answer within {within}; it was killed")
                    }
                }));
            }
            match self.take_line() {
                Some(Ok(line)) => return Ok(line),
                Some(Err(e)) => {
                    self.kill();
                    return Err(Wait::Failed(format!("it wrote {e}; it was stopped")));
                }
                None => {}
            }
            match self.from_engine.recv_timeout((until - now).min(POLL)) {
                Ok(Ok(chunk)) => self.pending.extend_from_slice(&chunk),
                Ok(Err(e)) => {
                    self.kill();
                    return Err(Wait::Failed(format!("its output could not be read: {e}")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if exited.is_none() {
                        if let Ok(Some(status)) = self.child.try_wait() {
                            // Its last lines may still be on their way: a moment for them.
                            exited = Some((status, Instant::now()));
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Its stdout closed: it exited or is about to. A last line without a
                    // line break still counts.
                    if !self.pending.is_empty() {
                        self.pending.push(b'\n');
                        continue;
                    }
                    let status = match exited {
                        Some((status, _)) => Some(status),
                        None => wait_a_little(&mut self.child),
                    };
                    self.kill();
                    return Err(Wait::Failed(match status {
                        Some(s) => format!("it exited ({s}) before answering"),
                        None => "it closed its output before answering; it was stopped".to_string(),
                    }));
                }
            }
        }
    }

    /// The next whole line of what was received, if there is one: without its `\n` (nor a `\r`
    /// before it), at most [`MAX_ENGINE_LINE`] bytes, UTF-8.
    fn take_line(&mut self) -> Option<Result<String, LineError>> {
        let Some(end) = self.pending.iter().position(|&b| b == b'\n') else {
            return (self.pending.len() > MAX_ENGINE_LINE)
                .then_some(Err(LineError::TooLong(MAX_ENGINE_LINE)));
        };
        if end > MAX_ENGINE_LINE {
            return Some(Err(LineError::TooLong(MAX_ENGINE_LINE)));
        }
        let mut line: Vec<u8> = self.pending.drain(..=end).collect();
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Some(String::from_utf8(line).map_err(|_| LineError::NotUtf8))
    }

    /// Ends the engine's whole process group, and the engine (reaped, so no zombie is left).
    fn kill(&mut self) {
        if !self.gone {
            end_group(&self.child);
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.gone = true;
        }
    }

    /// The error for a failure `what` at `at`, with what was expected and the last lines the
    /// engine wrote on stderr.
    fn failure(&self, at: &str, what: &str, expected: &str) -> anyhow::Error {
        let tail: Vec<u8> = self
            .stderr
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .copied()
            .collect();
        let tail = String::from_utf8_lossy(&tail);
        let lines: Vec<&str> = tail.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut msg = format!(
            "engine `{}` ({at}): {what}; expected {expected}",
            self.program
        );
        if !lines.is_empty() {
            let last: Vec<String> = lines[lines.len().saturating_sub(3)..]
                .iter()
                .map(|l| quoted(l))
                .collect();
            msg.push_str(&format!("; its stderr ended with {}", last.join(", ")));
        }
        anyhow!(msg)
    }
}

impl Drop for EngineClient {
    /// Says `quit`, gives the engine [`QUIT_WAIT`] to go, then ends its process group (what it
    /// started is not left running) and kills it if it is still there.
    fn drop(&mut self) {
        if self.gone {
            return;
        }
        self.send("quit\n");
        self.to_engine = None;
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Reaped just now: its group id is not reused while members remain, and a
                // new process rarely makes itself a group leader within this instant.
                end_group(&self.child);
                self.gone = true;
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// Why a wait for a line ended without one.
enum Wait {
    /// The match stopped (another game failed); the engine was ended.
    Stopped,
    /// The engine failed: what happened, in words.
    Failed(String),
}

/// Sends SIGKILL to the engine's process group (its id is the engine's pid): the engine and
/// everything it started that stayed in the group.
#[cfg(unix)]
fn end_group(child: &Child) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(child.id()) {
        // ESRCH (nobody left in the group) is the normal case after a clean exit.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn end_group(_child: &Child) {}

/// A thread that writes what it is sent to the engine's stdin, until the engine stops reading
/// or the sender is dropped (which closes the engine's stdin).
fn writer(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for text in rx {
            if stdin.write_all(text.as_bytes()).is_err() || stdin.flush().is_err() {
                return;
            }
        }
    });
    tx
}

/// The exit status of a child that closed its output, if it exits within a moment (else
/// `None`; the caller ends it).
fn wait_a_little(child: &mut Child) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if Instant::now() >= until {
            return None;
        }
        thread::sleep(Duration::from_millis(5));
    }
}
