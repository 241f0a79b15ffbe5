//! Many games at once: score distributions and win rates by seat.

use crate::game::GameAnalysis;

/// A distribution of final scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distribution {
    pub count: u32,
    pub min: u32,
    pub max: u32,
    pub mean: f64,
    pub median: f64,
}

impl Distribution {
    fn of(scores: &[u32]) -> Distribution {
        if scores.is_empty() {
            return Distribution::default();
        }
        let mut sorted = scores.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let median = if n % 2 == 1 {
            f64::from(sorted[n / 2])
        } else {
            (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0
        };
        Distribution {
            count: n as u32,
            min: sorted[0],
            max: sorted[n - 1],
            mean: sorted.iter().map(|&s| f64::from(s)).sum::<f64>() / n as f64,
            median,
        }
    }
}

/// Figures for one seat over the finished games that have it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatStats {
    pub seat: u8,
    /// Finished games with this seat.
    pub games: u32,
    /// Games this seat won; a shared win counts for every tied seat.
    pub wins: u32,
    pub scores: Distribution,
}

impl SeatStats {
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            f64::from(self.wins) / f64::from(self.games)
        }
    }
}

/// Figures over a collection of games; only finished games count in the figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aggregate {
    pub games: u32,
    pub finished: u32,
    /// Games whose replay stopped at an illegal event.
    pub stopped: u32,
    scores_by_seat: Vec<Vec<u32>>,
    wins_by_seat: Vec<u32>,
}

impl Aggregate {
    /// Takes in one game.
    pub fn add(&mut self, a: &GameAnalysis) {
        self.games += 1;
        if a.stopped.is_some() {
            self.stopped += 1;
        }
        if !a.finished {
            return;
        }
        self.finished += 1;
        if self.scores_by_seat.len() < a.players.len() {
            self.scores_by_seat.resize_with(a.players.len(), Vec::new);
            self.wins_by_seat.resize(a.players.len(), 0);
        }
        for (seat, p) in a.players.iter().enumerate() {
            self.scores_by_seat[seat].push(p.points);
        }
        for &w in &a.winners {
            self.wins_by_seat[usize::from(w)] += 1;
        }
    }

    /// Combines two aggregates (of disjoint sets of games).
    pub fn merge(&mut self, other: Aggregate) {
        self.games += other.games;
        self.finished += other.finished;
        self.stopped += other.stopped;
        if self.scores_by_seat.len() < other.scores_by_seat.len() {
            self.scores_by_seat
                .resize_with(other.scores_by_seat.len(), Vec::new);
            self.wins_by_seat.resize(other.wins_by_seat.len(), 0);
        }
        for (seat, scores) in other.scores_by_seat.into_iter().enumerate() {
            self.scores_by_seat[seat].extend(scores);
            self.wins_by_seat[seat] += other.wins_by_seat[seat];
        }
    }

    /// Every final score of every player.
    pub fn overall(&self) -> Distribution {
        let all: Vec<u32> = self.scores_by_seat.iter().flatten().copied().collect();
        Distribution::of(&all)
    }

    /// Per seat, in seat order.
    pub fn seats(&self) -> Vec<SeatStats> {
        self.scores_by_seat
            .iter()
            .zip(&self.wins_by_seat)
            .enumerate()
            .map(|(seat, (scores, &wins))| SeatStats {
                seat: seat as u8,
                games: scores.len() as u32,
                wins,
                scores: Distribution::of(scores),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_means_and_extremes() {
        let d = Distribution::of(&[10, 40, 20, 30]);
        assert_eq!((d.count, d.min, d.max), (4, 10, 40));
        assert_eq!(d.mean, 25.0);
        assert_eq!(d.median, 25.0);
        assert_eq!(Distribution::of(&[7, 1, 3]).median, 3.0);
        assert_eq!(Distribution::of(&[]), Distribution::default());
    }
}
