//! The engine's options as one line of text, `nodes=2000,rollout=4` (what `carc match` writes
//! after `engine:`), read ([`SearchOptions::from_spec`]) and written ([`SearchOptions::spec`]),
//! so that two settings of the same binary can play each other and be told apart.
//!
//! Keys: `nodes=N` or `ms=T` (the budget), `rollout=K` (plies of the rollout), `top=N` (the
//! rollout's policy), `meeple=X` (points a meeple in supply), `spread=X` (the logistic's
//! scale), `c=X` (UCT's exploration); Traders & Builders only: `goods=X` (the goods
//! majorities' spread, 0 = as they stand), `builder=X` (points a builder in play), `turn=X`
//! (points a second turn due); `exact=N` (tiles still to play at which the ending is solved
//! exactly, 0 = never); `eval=NAME` (how a leaf is valued: `outlook`, the default, or
//! `potential`, the value before issue 52). Keys not given keep their defaults.

use std::time::Duration;

use crate::ending::MAX_EXACT_TILES;
use crate::error::EngineError;
use crate::options::{Budget, Evaluation, SearchOptions, MAX_NODES, MAX_TIME};

impl SearchOptions {
    /// The default options changed by `spec`: comma-separated `key=value` pairs (see the
    /// module). An empty spec is the default. A key given twice, an unknown key or a value
    /// out of range is an error that names it.
    pub fn from_spec(spec: &str) -> Result<SearchOptions, EngineError> {
        let bad = |why: String| EngineError::BadSpec {
            spec: spec.to_string(),
            why,
        };
        let mut options = SearchOptions::default();
        let mut seen: Vec<&str> = Vec::new();
        for pair in spec.split(',').filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(bad(format!("{pair:?} is not key=value")));
            };
            let budget_key = matches!(key, "nodes" | "ms");
            if seen
                .iter()
                .any(|&k| k == key || (budget_key && matches!(k, "nodes" | "ms")))
            {
                return Err(bad(format!("{key} given twice (or nodes and ms both)")));
            }
            seen.push(key);
            let whole = |min: u64| -> Result<u64, EngineError> {
                match value.parse::<u64>() {
                    Ok(n) if n >= min => Ok(n),
                    _ => Err(bad(format!(
                        "{key} must be a whole number of at least {min}, not {value:?}"
                    ))),
                }
            };
            let real = || -> Result<f64, EngineError> {
                match value.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                    _ => Err(bad(format!(
                        "{key} must be a number of at least 0, not {value:?}"
                    ))),
                }
            };
            match key {
                "nodes" => {
                    let n = whole(1)?;
                    if n > MAX_NODES {
                        return Err(bad(format!("nodes {n} is over the most, {MAX_NODES}")));
                    }
                    options.budget = Budget::Nodes(n);
                }
                "ms" => {
                    let ms = whole(1)?;
                    if u128::from(ms) > MAX_TIME.as_millis() {
                        return Err(bad(format!(
                            "ms {ms} is over the most, {} (an hour)",
                            MAX_TIME.as_millis()
                        )));
                    }
                    options.budget = Budget::Time(Duration::from_millis(ms));
                }
                "rollout" => {
                    options.rollout = u32::try_from(whole(0)?)
                        .map_err(|_| bad(format!("rollout {value} is too many plies")))?
                }
                "top" => {
                    options.rollout_top = u32::try_from(whole(1)?)
                        .map_err(|_| bad(format!("top {value} is too many moves")))?
                }
                "meeple" => options.meeple_value = real()?,
                "spread" => {
                    options.margin_scale = real()?;
                    if options.margin_scale == 0.0 {
                        return Err(bad("spread must be above 0".into()));
                    }
                }
                "c" => options.exploration = real()?,
                "goods" => options.goods_spread = real()?,
                "builder" => options.builder_value = real()?,
                "turn" => options.second_turn_value = real()?,
                "exact" => {
                    let n = whole(0)?;
                    if n > u64::from(MAX_EXACT_TILES) + 1 {
                        return Err(bad(format!(
                            "exact {n} is over the most, {} tiles to play",
                            MAX_EXACT_TILES + 1
                        )));
                    }
                    options.exact = n as u32;
                }
                "eval" => {
                    options.evaluation = Evaluation::parse(value).ok_or_else(|| {
                        let names: Vec<&str> = Evaluation::ALL.iter().map(|e| e.name()).collect();
                        bad(format!(
                            "eval must be one of {}, not {value:?}",
                            names.join(", ")
                        ))
                    })?
                }
                _ => {
                    return Err(bad(format!(
                        "unknown key {key:?}; expected nodes, ms, rollout, top, meeple, spread, \
                         c, goods, builder, turn, exact or eval"
                    )))
                }
            }
        }
        Ok(options)
    }

    /// The budget, then every option that differs from the default, in [`Self::from_spec`]'s
    /// spelling (`nodes=2000`, `nodes=2000,rollout=4`). Options the spec cannot set (threads,
    /// seed, widening) are not written.
    pub fn spec(&self) -> String {
        let d = SearchOptions::default();
        let mut s = match self.budget {
            Budget::Nodes(n) => format!("nodes={n}"),
            Budget::Time(t) => format!("ms={}", t.as_millis()),
        };
        // Each option's key, as `from_spec` reads it; written only where it differs.
        macro_rules! differing {
            ($($field:ident => $key:literal),* $(,)?) => {
                $(if self.$field != d.$field {
                    s += &format!(concat!(",", $key, "={}"), self.$field);
                })*
            };
        }
        differing!(
            rollout => "rollout",
            rollout_top => "top",
            meeple_value => "meeple",
            margin_scale => "spread",
            exploration => "c",
            goods_spread => "goods",
            builder_value => "builder",
            second_turn_value => "turn",
            exact => "exact",
            evaluation => "eval",
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_sets_the_options_it_names_and_reads_back_as_written() {
        assert_eq!(
            SearchOptions::from_spec("").unwrap(),
            SearchOptions::default()
        );
        let o = SearchOptions::from_spec("nodes=8000,rollout=4,top=3,meeple=1.5,spread=2,c=0.5")
            .unwrap();
        assert_eq!(o.budget, Budget::Nodes(8000));
        assert_eq!((o.rollout, o.rollout_top), (4, 3));
        assert_eq!(
            (o.meeple_value, o.margin_scale, o.exploration),
            (1.5, 2.0, 0.5)
        );
        assert_eq!(
            o.spec(),
            "nodes=8000,rollout=4,top=3,meeple=1.5,spread=2,c=0.5"
        );
        assert_eq!(SearchOptions::from_spec(&o.spec()).unwrap(), o);
        let t = SearchOptions::from_spec("ms=300").unwrap();
        assert_eq!(t.budget, Budget::Time(Duration::from_millis(300)));
        assert_eq!(t.spec(), "ms=300");
        assert_eq!(SearchOptions::default().spec(), "nodes=2000");
    }

    #[test]
    fn the_traders_and_builders_corrections_are_read_and_written() {
        let o = SearchOptions::from_spec("goods=0.6,builder=3,turn=2.5").unwrap();
        assert_eq!(
            (o.goods_spread, o.builder_value, o.second_turn_value),
            (0.6, 3.0, 2.5)
        );
        assert_eq!(o.spec(), "nodes=2000,goods=0.6,builder=3,turn=2.5");
        assert_eq!(SearchOptions::from_spec(&o.spec()).unwrap(), o);
        let e = SearchOptions::from_spec("goods=-1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("goods must be a number of at least 0"), "{e}");
    }

    #[test]
    fn the_exact_endings_are_read_and_written() {
        let o = SearchOptions::from_spec("exact=0").unwrap();
        assert_eq!(o.exact, 0);
        assert_eq!(o.spec(), "nodes=2000,exact=0");
        assert_eq!(SearchOptions::from_spec(&o.spec()).unwrap(), o);
        assert_eq!(SearchOptions::default().exact, 3);
        let e = SearchOptions::from_spec("exact=9").unwrap_err().to_string();
        assert!(
            e.contains("exact 9 is over the most, 5 tiles to play"),
            "{e}"
        );
    }

    #[test]
    fn the_evaluation_is_chosen_by_name() {
        assert_eq!(SearchOptions::default().evaluation, Evaluation::Outlook);
        let o = SearchOptions::from_spec("eval=potential").unwrap();
        assert_eq!(o.evaluation, Evaluation::Potential);
        assert_eq!(o.spec(), "nodes=2000,eval=potential");
        assert_eq!(SearchOptions::from_spec(&o.spec()).unwrap(), o);
        let d = SearchOptions::from_spec("eval=outlook").unwrap();
        assert_eq!(d, SearchOptions::default());
        let e = SearchOptions::from_spec("eval=nn").unwrap_err().to_string();
        assert!(
            e.contains("eval must be one of potential, outlook, not \"nn\""),
            "{e}"
        );
    }

    #[test]
    fn a_bad_spec_is_an_error_that_names_what_is_wrong() {
        for (spec, says) in [
            ("nodes=0", "nodes must be a whole number of at least 1"),
            ("nodes=-3", "nodes must be"),
            ("rollout", "is not key=value"),
            ("rollout=two", "rollout must be a whole number"),
            ("top=0", "top must be a whole number of at least 1"),
            ("meeple=-1", "meeple must be a number of at least 0"),
            ("spread=0", "spread must be above 0"),
            ("c=NaN", "c must be a number"),
            ("nodes=5,ms=5", "given twice"),
            ("rollout=2,rollout=3", "given twice"),
            ("depth=3", "unknown key \"depth\""),
            ("nodes=18446744073709551615", "is over the most, 100000000"),
            ("ms=3600001", "is over the most, 3600000"),
        ] {
            let e = SearchOptions::from_spec(spec).unwrap_err().to_string();
            assert!(e.contains(says), "{spec}: {e}");
            assert!(e.contains(spec), "{spec}: {e}");
        }
    }

    #[test]
    fn a_budget_is_capped_at_the_most_a_search_runs() {
        assert_eq!(Budget::Nodes(u64::MAX).capped(), Budget::Nodes(MAX_NODES));
        assert_eq!(Budget::Nodes(0).capped(), Budget::Nodes(1));
        assert_eq!(
            Budget::Time(Duration::from_millis(u64::MAX)).capped(),
            Budget::Time(MAX_TIME)
        );
        assert_eq!(Budget::Nodes(500).capped(), Budget::Nodes(500));
    }
}
