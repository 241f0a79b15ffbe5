//! `CARC_TIMINGS=1`: where a bulk verb's time went, on stderr when it ends (docs/benchmarks.md,
//! "Bulk work on every core"). The verbs that work on every core (`check`, `simulate`,
//! `analyze`, `export --format parquet`, `import`, `verify`) do their serial work on the
//! calling thread: reading folders, opening the store, writing Parquet, committing to the
//! store, printing in input order. Workers do the rest. So the calling thread's CPU time,
//! against the whole process's, is the serial share of the work that bounds the speed-up
//! (Amdahl's law); a verb with a serial stage on a thread of its own (`verify`'s store walk)
//! adds it with [`serial_stage`].
//!
//! CPU time, not wall time: on a shared machine, or with the workers on the same core as the
//! calling thread, a stage's wall time counts the time it waited for the core. Linux only
//! (`/proc`); elsewhere nothing is printed.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Serial stages that ran on threads of their own, by name.
static STAGES: Mutex<Vec<(&'static str, Duration)>> = Mutex::new(Vec::new());

/// Whether `CARC_TIMINGS` asks for the report.
pub fn wanted() -> bool {
    std::env::var_os("CARC_TIMINGS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// CPU time of the calling thread so far (`/proc/thread-self/schedstat`: nanoseconds).
pub fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// CPU time of the whole process so far, threads that ended included (`/proc/self/stat`:
/// user and system time in clock ticks of 10 ms).
fn process_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Records a serial stage that ran on a thread of its own: call it on that thread when the
/// stage ends, with the thread's CPU time at its start.
pub fn serial_stage(name: &'static str, started: Option<Duration>) {
    if let (Some(start), Some(end)) = (started, thread_cpu()) {
        STAGES
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((name, end.saturating_sub(start)));
    }
}

/// The report, on stderr: wall time, the process's CPU time, the calling thread's (and any
/// other serial stage's) and the serial share they make, with the speed-ups it allows.
pub fn report(verb: &str, started: Instant) {
    let wall = started.elapsed();
    let (Some(main), Some(total)) = (thread_cpu(), process_cpu()) else {
        return;
    };
    let stages = STAGES.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let serial = main + stages.iter().map(|(_, d)| *d).sum::<Duration>();
    let share = if total.is_zero() {
        0.0
    } else {
        (serial.as_secs_f64() / total.as_secs_f64()).min(1.0)
    };
    let bound = |n: f64| 1.0 / (share + (1.0 - share) / n);
    let others: String = stages
        .iter()
        .map(|(name, d)| format!(" + {name} {:.3} s", d.as_secs_f64()))
        .collect();
    eprintln!(
        "carc timings: {verb}: wall {:.3} s, CPU {:.2} s; serial: calling thread {:.3} s{others} \
         = {:.1} % of CPU (Amdahl: at most {:.1}x on 2 cores, {:.1}x on 16)",
        wall.as_secs_f64(),
        total.as_secs_f64(),
        main.as_secs_f64(),
        share * 100.0,
        bound(2.0),
        bound(16.0),
    );
}
