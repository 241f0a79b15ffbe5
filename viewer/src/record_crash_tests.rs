//! A crash mid-move leaves the store at the last acknowledged move (issue 36): the viewer's
//! writes are killed as the CLI's are in the store's crash tests. A child process (this unit
//! test binary run again with `CHILD_DIR` set, filtered to `child_entry`) records a sample game
//! through record mode and [`StoreRecorder`] (the store kept open), printing `ACK n` after
//! each move's append has returned, where n is the number of events then stored. The parent
//! SIGKILLs it at a random moment, reopens the store and finds the game to be the sample's
//! first events: never fewer than acknowledged, at most the one move in flight more, no torn
//! line. The next child continues the game where the store stands.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use carc_archive::read_game;
use carc_events::{read_log, Color, Event};
use carc_store::{Store, StoreError};
use carc_viewer_ui::record::NewGame;
use carc_viewer_ui::{trial, ViewerApp};

use crate::store_record::{Held, StoreRecorder};

const CHILD_DIR: &str = "CARC_VIEWER_CRASH_CHILD_DIR";
const GAME: &str = "table";
/// Kills, each after a random number of acknowledged moves (at most [`MOVES_PER_ROUND`]) and
/// a random delay drawn from this seed's sequence: the game (214 events) is never over before
/// the last kill.
const ROUNDS: u32 = 6;
const MOVES_PER_ROUND: u64 = 20;

fn sample() -> Vec<Event> {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../logs/sim-2p-greedy-vs-random.jsonl"),
    )
    .unwrap();
    read_log(&bytes[..])
        .unwrap()
        .events
        .into_iter()
        .map(|(_, e)| e.event)
        .collect()
}

/// Not a test of its own: the body of the child processes.
#[test]
fn child_entry() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    record_until_killed(&PathBuf::from(dir));
}

/// Starts the game (or continues it where the store stands) and records the sample's moves,
/// one acknowledged line per move; at the end of the game waits to be killed.
fn record_until_killed(dir: &Path) -> ! {
    let moves = sample();
    let mut app = ViewerApp::new();
    app.set_recorder(Box::new(StoreRecorder::new(
        dir.to_path_buf(),
        Held::default(),
    )));
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut say = |line: String| {
        // Leading newline: libtest has printed "test child_entry ... " without one.
        writeln!(out, "\n{line}")
            .and_then(|()| out.flush())
            .expect("stdout");
    };
    // The killed child's store lock is gone with it; retry briefly in case the OS is slow.
    let started = Instant::now();
    let mut resumed = app.continue_recording(GAME);
    while matches!(&resumed, Err(e) if e.contains("in use")) && started.elapsed().as_secs() < 10 {
        thread::sleep(Duration::from_millis(10));
        resumed = app.continue_recording(GAME);
    }
    if let Err(e) = resumed {
        assert!(e.contains("holds no game"), "child: {e}");
        let form = NewGame {
            game: GAME.into(),
            players: vec![("Ada".into(), Color::Red), ("Brandt".into(), Color::Blue)],
            ..NewGame::default()
        };
        app.start_recording(&form).expect("child: start");
        say("ACK 1".into());
    }
    say("READY".into());
    loop {
        let Some(state) = app.state() else {
            panic!("child: no game shown")
        };
        let done = app.recording().is_none();
        let n = app.cursor();
        if done || n == moves.len() {
            say("OVER".into());
            loop {
                thread::sleep(Duration::from_secs(1));
            }
        }
        let action = trial::action_for(state, &moves[n])
            .unwrap_or_else(|| panic!("child: {:?} not offered", moves[n]));
        app.record_action(action);
        let status = app.status_text().unwrap_or_default().to_string();
        assert!(
            status.starts_with("recorded event") || status.contains("is over"),
            "child: move {n} not recorded: {status}"
        );
        // The append has returned: the move is acknowledged.
        say(format!("ACK {}", n + 1));
    }
}

fn spawn_child(dir: &Path) -> Child {
    Command::new(std::env::current_exe().expect("current exe"))
        .args([
            "record_crash_tests::child_entry",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn child")
}

/// Forwards the child's stdout lines to a channel (ends when the child's stdout closes).
fn read_lines(child: &mut Child) -> (mpsc::Receiver<String>, thread::JoinHandle<()>) {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (rx, handle)
}

/// A tiny deterministic pseudo-random generator (splitmix64): no `rand` needed.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// The store, once the killed child's lock is gone.
fn reopen(dir: &Path) -> Store {
    let started = Instant::now();
    loop {
        match Store::open(dir) {
            Ok(s) => return s,
            Err(StoreError::InUse { .. }) if started.elapsed().as_secs() < 10 => {
                thread::sleep(Duration::from_millis(10))
            }
            Err(e) => panic!("reopen: {e}"),
        }
    }
}

/// The game's events as stored (every effective line must parse: a torn line fails here).
fn stored_events(store: &Store) -> Vec<Event> {
    let Some(sg) = read_game(store, GAME).unwrap() else {
        return Vec::new();
    };
    let bytes = sg.effective_bytes().unwrap();
    read_log(&bytes[..])
        .unwrap_or_else(|e| panic!("the stored game does not read: {e}"))
        .events
        .into_iter()
        .map(|(_, e)| e.event)
        .collect()
}

#[test]
fn a_record_session_killed_mid_move_leaves_the_store_at_the_last_acknowledged_move() {
    let moves = sample();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = SplitMix(0x36C0_FFEE);
    let mut acked = 0usize;
    let mut in_flight_seen = 0;
    for round in 0..ROUNDS {
        // Given a child recording the game through record mode
        let mut child = spawn_child(dir.path());
        let (rx, reader) = read_lines(&mut child);
        let deadline = Instant::now() + Duration::from_secs(20);
        // When it is SIGKILLed after a random number of its moves, a random moment into the
        // next (its append may be under way, done but not acknowledged, or not begun)
        let moves_before_kill = 1 + rng.below(MOVES_PER_ROUND);
        let (mut ready, mut seen) = (false, 0);
        while seen < moves_before_kill {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(l) if l == "READY" => ready = true,
                Ok(l) if l == "OVER" => panic!("round {round}: the game ended before the kill"),
                Ok(l) => {
                    let n = ack(&l);
                    acked = acked.max(n);
                    seen += u64::from(ready && n > 0);
                }
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("round {round}: the child made no {moves_before_kill} moves: {e}");
                }
            }
        }
        thread::sleep(Duration::from_micros(rng.below(1000)));
        let running = child.try_wait().expect("try_wait").is_none();
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        assert!(
            running,
            "round {round}: the child exited on its own: {status}"
        );
        reader.join().expect("reader");
        for l in rx.try_iter() {
            acked = acked.max(ack(&l));
            assert_ne!(l, "OVER", "round {round}: the game ended before the kill");
        }
        // Then the store holds the sample's first events: every acknowledged move, at most
        // the one in flight more, every line whole
        let store = reopen(dir.path());
        let report = store.verify().unwrap();
        assert!(report.is_ok(), "round {round}: {report}");
        let stored = stored_events(&store);
        assert!(
            stored.len() >= acked && stored.len() <= acked + 1,
            "round {round}: {} events stored, {acked} acknowledged",
            stored.len()
        );
        assert_eq!(stored, moves[..stored.len()], "round {round}");
        in_flight_seen += usize::from(stored.len() > acked);
        assert!(
            stored.len() < moves.len(),
            "round {round}: the game is over"
        );
        acked = stored.len();
        drop(store);
    }
    eprintln!("{ROUNDS} kills mid-game: {acked} events stored; {in_flight_seen} kill(s) after a move was stored, before its acknowledgement");
    assert!(
        acked > ROUNDS as usize,
        "the children recorded too few moves"
    );
}

fn ack(line: &str) -> usize {
    line.strip_prefix("ACK ")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
