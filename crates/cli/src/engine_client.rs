//! carc driving an outside engine over the engine protocol (`docs/engine-protocol.md`): the
//! `cmd:PROGRAM` players of `carc match`. The engine is untrusted: every read has a deadline
//! (the move's budget plus a grace period; the greeting 10 s plus the grace), every line read
//! is bounded ([`MAX_ENGINE_LINE`]), and a crash, a silence, garbage or a move not listed is
//! an error naming the engine, the position and what was expected. An engine that misses
//! its deadline is killed. Writes go through a thread of their own, so an engine that stops
//! reading cannot block carc either.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

use crate::engine_protocol::{read_line, LineError, HELLO, MAX_ENGINE_LINE};

/// How long an engine has to greet, on top of the grace period: starting a program (an
/// interpreter, a network) may take a while.
pub const STARTUP: Duration = Duration::from_secs(10);
/// How long an engine told to quit has before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);
/// Bytes of the engine's stderr kept to quote when it fails.
const STDERR_TAIL: usize = 2048;

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
    from_engine: Receiver<Result<String, LineError>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Killed, or known to have exited.
    gone: bool,
}

impl EngineClient {
    /// Starts `program` (split on whitespace: the program, then its arguments; no shell) and
    /// waits for its greeting (`ready`), at most [`STARTUP`] + `grace`.
    pub fn start(program: &str, grace: Duration) -> Result<EngineClient> {
        let mut words = program.split_whitespace();
        let Some(exe) = words.next() else {
            bail!("cmd: names no program (expected cmd:PROGRAM [ARGS…])");
        };
        let mut child = Command::new(exe)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| anyhow!("cannot start the engine `{program}`: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let to_engine = writer(stdin);
        let (tx, from_engine) = mpsc::sync_channel(256);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                match read_line(&mut reader, MAX_ENGINE_LINE) {
                    Ok(Some(line)) => {
                        if tx.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
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
            stderr: tail,
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
            let line = client
                .next_line(deadline, &within)
                .map_err(|e| client.failure("at its start", &e, "`ready`"))?;
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
                Err(e) => return Err(self.failure(at, &e, &expected)),
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
    /// engine is then killed or known to be gone).
    fn next_line(&mut self, deadline: Instant, within: &str) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_engine.recv_timeout(wait) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => {
                self.kill();
                Err(format!("it wrote {e}; it was stopped"))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(format!("no answer within {within}; it was killed"))
            }
            Err(RecvTimeoutError::Disconnected) => {
                // Its stdout closed: it exited or is about to.
                let status = wait_a_little(&mut self.child);
                self.gone = true;
                Err(match status {
                    Some(s) => format!("it exited ({s}) before answering"),
                    None => "it closed its output before answering; it was stopped".to_string(),
                })
            }
        }
    }

    fn kill(&mut self) {
        if !self.gone {
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
    /// Says `quit`, gives the engine [`QUIT_WAIT`] to go, then kills it.
    fn drop(&mut self) {
        if self.gone {
            return;
        }
        self.send("quit\n");
        self.to_engine = None;
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

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

/// The exit status of a child that closed its output, if it exits within a moment (else it
/// is killed, and `None`).
fn wait_a_little(child: &mut Child) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(5));
    }
}
