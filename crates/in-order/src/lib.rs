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
    /// The consumer stopped: workers take no more inputs.
    stop: bool,
}

fn lock<T>(m: &Mutex<Shared<T>>) -> MutexGuard<'_, Shared<T>> {
    // Nothing panics while holding the lock (plain inserts and removals), so a poisoned lock
    // still guards consistent data.
    m.lock().unwrap_or_else(|p| p.into_inner())
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
    mut consume: impl FnMut(usize, Result<T, Panicked>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let threads = threads.clamp(1, count.max(1));
    let window = window.max(1);
    let shared = Mutex::new(Shared {
        ready: BTreeMap::new(),
        consumed: 0,
        stop: false,
    });
    // Signalled when a result is ready (the consumer waits) and when one is consumed or the
    // consumer stops (workers wait for room in the window).
    let result_ready = Condvar::new();
    let room = Condvar::new();
    let next = AtomicUsize::new(0);

    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            break;
        }
        {
            let mut s = lock(&shared);
            while !s.stop && i >= s.consumed + window {
                s = room.wait(s).unwrap_or_else(|p| p.into_inner());
            }
            if s.stop {
                break;
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
        lock(&shared).ready.insert(i, result);
        result_ready.notify_one();
    };

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(work);
        }
        let mut outcome = Ok(());
        for i in 0..count {
            let result = {
                let mut s = lock(&shared);
                loop {
                    if let Some(r) = s.ready.remove(&i) {
                        break r;
                    }
                    s = result_ready.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            };
            let step = consume(i, result);
            {
                let mut s = lock(&shared);
                s.consumed = i + 1;
                s.stop = step.is_err();
            }
            room.notify_all();
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
