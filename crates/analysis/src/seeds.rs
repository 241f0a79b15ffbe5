//! Where the judges' random numbers come from: every seed derives from the review's seed and
//! the event judged, never from the thread or the order of work, so a review is the same
//! whatever the number of threads.

/// splitmix64: spreads seeds so that neighbouring inputs give unrelated streams.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of playout `k` of `stage` for the decision at event `seq`: the same for every
/// candidate of that decision.
pub(crate) fn playout_seed(seed: u64, seq: u64, stage: u64, k: u32) -> u64 {
    mix(mix(mix(seed) ^ seq) ^ (stage << 32 | u64::from(k)))
}

/// The seed of the engine judge's search `stage` of the decision at event `seq`.
pub(crate) fn search_seed(seed: u64, seq: u64, stage: u64) -> u64 {
    mix(mix(seed ^ stage.rotate_left(32)) ^ seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_playout_stage_and_event_but_not_by_candidate() {
        let a = playout_seed(1, 10, 0, 0);
        assert_eq!(a, playout_seed(1, 10, 0, 0));
        assert_ne!(a, playout_seed(1, 10, 0, 1));
        assert_ne!(a, playout_seed(1, 10, 1, 0));
        assert_ne!(a, playout_seed(1, 11, 0, 0));
        assert_ne!(a, playout_seed(2, 10, 0, 0));
    }

    #[test]
    fn search_seeds_differ_by_stage_and_event() {
        let a = search_seed(1, 10, 0);
        assert_eq!(a, search_seed(1, 10, 0));
        assert_ne!(a, search_seed(1, 10, 1));
        assert_ne!(a, search_seed(1, 11, 0));
        assert_ne!(a, search_seed(2, 10, 0));
    }
}
