//! The goods of Traders & Builders: a flag on a city segment of the tile set.

/// A kind of goods shown in a city (Traders & Builders): whoever completes the city takes one
/// token per symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Good {
    /// Wine (9 symbols in the compiled-in Traders & Builders set).
    Wine,
    /// Grain (6 symbols in the compiled-in set).
    Grain,
    /// Cloth (5 symbols in the compiled-in set).
    Cloth,
}

impl Good {
    /// The three kinds in [`Good::index`] order: wine, grain, cloth.
    pub const ALL: [Good; 3] = [Good::Wine, Good::Grain, Good::Cloth];

    /// Index into per-kind counts (wine 0, grain 1, cloth 2).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The word the tile-set file, the log and the explanations use.
    pub fn word(self) -> &'static str {
        match self {
            Good::Wine => "wine",
            Good::Grain => "grain",
            Good::Cloth => "cloth",
        }
    }

    /// The kind named by `word` (`wine`, `grain`, `cloth`).
    pub fn from_word(word: &str) -> Option<Good> {
        Good::ALL.into_iter().find(|g| g.word() == word)
    }
}

impl std::fmt::Display for Good {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}
