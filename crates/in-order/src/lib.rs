//! `carc-in-order`: runs a job per input on worker threads and hands the results to the
//! calling thread **in input order**, with at most a fixed window of results computed ahead
//! of the consumer.
//!
//! The consumer is where order matters (a Parquet writer writing rows in input order, an import
//! committing games to the store in file order and reporting them in that order); the jobs are
//! where the time goes (decoding and replaying games). The window bounds the results waiting
//! to be consumed, and with them the memory, whatever the number of inputs. A job that panics
//! becomes a [`Panicked`] result for its input instead of leaving the consumer waiting for it.
//! When the consumer returns an error, the workers stop taking inputs and the error is returned.
//!
//! ```
//! let mut seen = Vec::new();
//! carc_in_order::map_in_order(5, 2, 4, |i| i * 10, |i, r| {
//!     seen.push((i, r.unwrap()));
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert_eq!(seen, [(0, 0), (1, 10), (2, 20), (3, 30), (4, 40)]);
//! ```

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// A job panicked (a bug in the code it ran); the panic's message when it had one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panicked(pub String);

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "internal error: the job panicked ({})", self.0)
    }
}

impl std::error::Error for Panicked {}

struct Shared<T> {
    /// Results computed and not consumed yet, by input index.
    ready: BTreeMap<usize, Result<T, Panicked>>,
    /// Inputs consumed so far (the consumer's next index).
    consumed: usize,
    /// Inputs started so far: they start in index order (the next one is `started`).
    started: usize,
    /// Summed weight of the inputs started and not consumed yet.
    in_flight: u64,
    /// Weight of each input started and not consumed yet, by index.
    weights: BTreeMap<usize, u64>,
    /// The consumer stopped: workers take no more inputs.
    stop: bool,
    /// Workers waiting on `room`, and whether the consumer waits on `result_ready`: a
    /// condition variable's notify is a system call even when nobody waits, so it is made
    /// only when someone does.
    workers_waiting: usize,
    consumer_waiting: bool,
}

impl<T> Shared<T> {
    /// Whether a worker should wake the waiting consumer now: its next result is ready, and
    /// either [`BATCH`] results are ready in a row from it, or the workers cannot go on
    /// without it (every input started, or a worker waits for room).
    fn consumer_should_wake(&self, count: usize) -> bool {
        if !self.consumer_waiting || !self.ready.contains_key(&self.consumed) {
            return false;
        }
        if self.started >= count || self.workers_waiting > 0 || self.stop {
            return true;
        }
        (self.consumed..self.consumed + BATCH).all(|i| self.ready.contains_key(&i))
    }
}

/// How many results in a row a waiting consumer is woken for, while the workers can still
/// go on: one wake-up (a context switch, on a busy machine) per few results, not per result.
const BATCH: usize = 4;

fn lock<T>(m: &Mutex<Shared<T>>) -> MutexGuard<'_, Shared<T>> {
    // Nothing panics while holding the lock (plain inserts and removals), so a poisoned lock
    // still guards consistent data.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sets `stop` and wakes every worker when dropped.
struct StopOnDrop<'a, T> {
    shared: &'a Mutex<Shared<T>>,
    room: &'a Condvar,
}

impl<T> Drop for StopOnDrop<'_, T> {
    fn drop(&mut self) {
        lock(self.shared).stop = true;
        self.room.notify_all();
    }
}

/// How far ahead of the consumer the workers may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Inputs started and not consumed yet, at most (at least 1).
    pub inputs: usize,
    /// Their summed weight, at most (see [`map_in_order_weighted`]). An input heavier than
    /// this on its own still runs, but alone.
    pub weight: u64,
}

/// Runs `job(i)` for every `i` in `0..count` on `threads` worker threads (at least one) and
/// calls `consume(i, result)` on the calling thread for `i = 0, 1, 2, …` in that order. A
/// worker starts input `i` only once `i < consumed + window` (`window` at least 1). Returns
/// the first error `consume` returns (after which no further job starts), else `Ok`.
pub fn map_in_order<T, E>(
    count: usize,
    threads: usize,
    window: usize,
    job: impl Fn(usize) -> T + Sync,
    consume: impl FnMut(usize, Result<T, Panicked>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let window = Window {
        inputs: window,
        weight: u64::MAX,
    };
    map_in_order_weighted(count, threads, window, |_| 0, job, consume)
}

/// [`map_in_order`] where each input also has a weight, known before its job runs (for
/// example the size of the file it reads): the inputs started and not consumed yet never
/// weigh more than `window.weight` together, unless one input alone does (it then runs
/// alone). Inputs start in index order, so the consumer's next input is never kept waiting
/// behind later ones.
pub fn map_in_order_weighted<T, E>(
    count: usize,
    threads: usize,
    window: Window,
    weight: impl Fn(usize) -> u64 + Sync,
    job: impl Fn(usize) -> T + Sync,
    mut consume: impl FnMut(usize, Result<T, Panicked>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let threads = threads.clamp(1, count.max(1));
    let inputs = window.inputs.max(1);
    let shared = Mutex::new(Shared {
        ready: BTreeMap::new(),
        consumed: 0,
        started: 0,
        in_flight: 0,
        weights: BTreeMap::new(),
        stop: false,
        workers_waiting: 0,
        consumer_waiting: false,
    });
    // Signalled when a result is ready (the consumer waits), and when an input is consumed or
    // started or the consumer stops (workers wait for their turn and for room in the window).
    let result_ready = Condvar::new();
    let room = Condvar::new();
    let next = AtomicUsize::new(0);

    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            break;
        }
        let w = weight(i);
        {
            let mut s = lock(&shared);
            // In index order; within the window; within the weight, unless nothing else
            // is in flight (the consumer's next input then always gets to start).
            while !s.stop
                && (s.started != i
                    || i >= s.consumed + inputs
                    || (s.in_flight > 0 && s.in_flight.saturating_add(w) > window.weight))
            {
                s.workers_waiting += 1;
                // This worker cannot go on: a consumer waiting for a batch must not wait
                // for it.
                if s.consumer_should_wake(count) {
                    result_ready.notify_one();
                }
                s = room.wait(s).unwrap_or_else(|p| p.into_inner());
                s.workers_waiting -= 1;
            }
            if s.stop {
                break;
            }
            s.started = i + 1;
            s.in_flight = s.in_flight.saturating_add(w);
            s.weights.insert(i, w);
            // The next input's worker may be waiting for its turn.
            if s.workers_waiting > 0 {
                room.notify_all();
            }
        }
        let result = catch_unwind(AssertUnwindSafe(|| job(i))).map_err(|payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Panicked(message)
        });
        let mut s = lock(&shared);
        s.ready.insert(i, result);
        if s.consumer_should_wake(count) {
            result_ready.notify_one();
        }
    };

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(work);
        }
        // However the consumer leaves (done, an error, or a panic in `consume` unwinding
        // through here), the workers are told to stop, so the scope's join never waits for
        // a worker parked on a full window.
        let _stop_workers = StopOnDrop {
            shared: &shared,
            room: &room,
        };
        let mut outcome = Ok(());
        for i in 0..count {
            let result = {
                let mut s = lock(&shared);
                loop {
                    if let Some(r) = s.ready.remove(&i) {
                        break r;
                    }
                    s.consumer_waiting = true;
                    s = result_ready.wait(s).unwrap_or_else(|p| p.into_inner());
                    s.consumer_waiting = false;
                }
            };
            let step = consume(i, result);
            {
                let mut s = lock(&shared);
                s.consumed = i + 1;
                let w = s.weights.remove(&i).unwrap_or(0);
                s.in_flight -= w.min(s.in_flight);
                s.stop = step.is_err();
                if s.workers_waiting > 0 {
                    room.notify_all();
                }
            }
            if let Err(e) = step {
                outcome = Err(e);
                break;
            }
        }
        // On an error the workers see `stop` and leave; the scope waits for them.
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn results_come_in_input_order_whatever_the_order_jobs_finish_in() {
        // Given jobs that finish in reverse order of their inputs (later ones are quicker),
        let mut seen = Vec::new();
        map_in_order(
            40,
            4,
            8,
            |i| {
                std::thread::sleep(std::time::Duration::from_micros(((40 - i) * 50) as u64));
                i
            },
            |i, r| {
                seen.push((i, r.unwrap()));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        // then the consumer still sees 0, 1, 2, ... with each input's own result.
        assert_eq!(seen, (0..40).map(|i| (i, i)).collect::<Vec<_>>());
    }

    #[test]
    fn no_job_starts_more_than_the_window_ahead_of_the_consumer() {
        // Given a slow consumer and a window of 3,
        let started = AtomicUsize::new(0);
        let mut max_ahead = 0;
        map_in_order(
            30,
            4,
            3,
            |i| {
                started.fetch_max(i + 1, Ordering::SeqCst);
                i
            },
            |i, _| {
                std::thread::sleep(std::time::Duration::from_millis(1));
                // then when input i is consumed, at most inputs up to i + 3 were started.
                max_ahead = max_ahead.max(started.load(Ordering::SeqCst) - i);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert!(max_ahead <= 3, "{max_ahead} inputs started ahead");
    }

    #[test]
    fn a_panicking_job_is_its_inputs_result_and_the_rest_go_on() {
        let mut seen = Vec::new();
        map_in_order(
            5,
            2,
            2,
            |i| {
                if i == 2 {
                    panic!("input two");
                }
                i
            },
            |i, r| {
                seen.push((i, r));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen[2], (2, Err(Panicked("input two".into()))));
        assert_eq!(seen[4], (4, Ok(4)));
    }

    #[test]
    fn an_error_of_the_consumer_stops_the_work_and_is_returned() {
        let ran = AtomicUsize::new(0);
        let result = map_in_order(
            1000,
            2,
            4,
            |i| {
                ran.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| if i == 10 { Err(i) } else { Ok(()) },
        );
        assert_eq!(result, Err(10));
        // At most the window beyond the failing input was started.
        assert!(ran.load(Ordering::SeqCst) <= 10 + 1 + 4, "{ran:?}");
    }

    #[test]
    fn the_weight_in_flight_stays_within_the_budget_and_a_heavy_input_runs_alone() {
        // Given inputs weighing 1..=9 (one of them, 25, heavier than the whole budget of 20),
        let weights: Vec<u64> = (0..60)
            .map(|i| if i == 30 { 25 } else { i % 9 + 1 })
            .collect();
        let in_flight = std::sync::Mutex::new(0u64);
        let mut worst = 0;
        let mut seen = Vec::new();
        map_in_order_weighted(
            weights.len(),
            4,
            Window {
                inputs: 16,
                weight: 20,
            },
            |i| weights[i],
            |i| {
                // when each job runs, it counts itself in flight until it is consumed,
                let mut f = in_flight.lock().unwrap();
                *f += weights[i];
                *f
            },
            |i, r| {
                std::thread::sleep(std::time::Duration::from_micros(200));
                let at_start = r.unwrap();
                // then no job started with more than the budget in flight, except the heavy
                // one alone, and the results still come in order.
                if weights[i] <= 20 {
                    worst = worst.max(at_start);
                } else {
                    assert_eq!(at_start, weights[i], "the heavy input ran alone");
                }
                *in_flight.lock().unwrap() -= weights[i];
                seen.push(i);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert!(worst <= 20, "{worst} in flight");
        assert_eq!(seen, (0..60).collect::<Vec<_>>());
    }

    #[test]
    fn a_panicking_consumer_stops_the_workers_and_the_panic_comes_through() {
        // Given a consumer that panics at input 3 while the workers have filled the window,
        // (run on a thread of its own, so that a hang fails the test instead of stalling it)
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let outcome = catch_unwind(|| {
                map_in_order(
                    1000,
                    2,
                    2,
                    |i| i,
                    |i, _| {
                        if i == 3 {
                            panic!("consumer bug");
                        }
                        Ok::<(), ()>(())
                    },
                )
            });
            let _ = done.send(outcome.is_err());
        });
        // then the call returns (no worker left waiting for room) with the panic.
        let panicked = finished
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("map_in_order hung after its consumer panicked");
        assert!(panicked);
    }

    #[test]
    fn a_consumer_waiting_for_a_batch_is_woken_when_the_workers_cannot_go_on() {
        // Given windows smaller than, equal to and larger than the consumer's batch, counts
        // that are no multiple of it, inputs too heavy to start together, and a slow consumer
        // (workers block on the window) or quick ones (the consumer waits for results),
        // (on a thread of its own, so that a consumer left waiting fails the test instead of
        // stalling it)
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for (count, threads, inputs, weight, slow) in [
                (7, 1, 1, u64::MAX, false),
                (9, 3, 2, u64::MAX, true),
                (13, 2, 4, u64::MAX, false),
                (30, 4, 16, 3, false),
                (30, 2, 16, u64::MAX, true),
                (3, 4, 64, u64::MAX, false),
            ] {
                let mut seen = Vec::new();
                map_in_order_weighted(
                    count,
                    threads,
                    Window { inputs, weight },
                    |_| 2,
                    |i| i,
                    |i, r| {
                        if slow {
                            std::thread::sleep(std::time::Duration::from_micros(300));
                        }
                        seen.push((i, r.unwrap()));
                        Ok::<(), ()>(())
                    },
                )
                .unwrap();
                // then every result comes, in order.
                assert_eq!(seen, (0..count).map(|i| (i, i)).collect::<Vec<_>>());
            }
            let _ = done.send(());
        });
        finished
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the consumer was left waiting for a batch");
    }

    #[test]
    fn nothing_to_do_calls_nothing() {
        let r = map_in_order(
            0,
            4,
            4,
            |_| -> usize { unreachable!() },
            |_, _| Err::<(), _>(()),
        );
        assert_eq!(r, Ok(()));
    }
}
