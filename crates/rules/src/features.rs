//! Features as a union-find over segments.
//!
//! Every segment of every placed tile gets a global id. Segments joined across matching edges
//! are unioned; the root of each set carries the feature's running totals (open sides, coats of
//! arms, meeples per player), so completion and occupancy are O(1) checks when a tile is placed
//! rather than a flood fill. Members of a set form a circular list (`next`) so a feature's tiles
//! can be listed when it is scored or explained.

use crate::reuse::clone_reusing;
use crate::tileset::FeatureKind;

/// Most players a game can have.
pub const MAX_PLAYERS: usize = 6;

#[derive(Debug, Default)]
pub(crate) struct Features {
    parent: Vec<u32>,
    next: Vec<u32>,
    size: Vec<u32>,
    pub(crate) kind: Vec<FeatureKind>,
    /// Placed-tile index of each segment.
    pub(crate) tile: Vec<u16>,
    /// Local segment index on its tile.
    pub(crate) local: Vec<u8>,
    // Root data (valid at roots only).
    /// Cities and roads: sides not yet matched. Monasteries: surrounding squares still empty.
    pub(crate) open: Vec<u16>,
    pub(crate) coats_of_arms: Vec<u16>,
    pub(crate) meeples: Vec<[u8; MAX_PLAYERS]>,
}

// `clone_from` reuses the columns (simulated players copy the game for every move tried).
clone_reusing!(Features {
    parent,
    next,
    size,
    kind,
    tile,
    local,
    open,
    coats_of_arms,
    meeples,
});

impl Features {
    pub(crate) fn with_capacity(n: usize) -> Features {
        Features {
            parent: Vec::with_capacity(n),
            next: Vec::with_capacity(n),
            size: Vec::with_capacity(n),
            kind: Vec::with_capacity(n),
            tile: Vec::with_capacity(n),
            local: Vec::with_capacity(n),
            open: Vec::with_capacity(n),
            coats_of_arms: Vec::with_capacity(n),
            meeples: Vec::with_capacity(n),
        }
    }

    pub(crate) fn len(&self) -> u32 {
        self.parent.len() as u32
    }

    pub(crate) fn add(
        &mut self,
        kind: FeatureKind,
        tile: u16,
        local: u8,
        open: u16,
        coa: u16,
    ) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.next.push(id);
        self.size.push(1);
        self.kind.push(kind);
        self.tile.push(tile);
        self.local.push(local);
        self.open.push(open);
        self.coats_of_arms.push(coa);
        self.meeples.push([0; MAX_PLAYERS]);
        id
    }

    /// The root of `s`'s feature (path halving).
    #[inline]
    pub(crate) fn find(&mut self, mut s: u32) -> u32 {
        while self.parent[s as usize] != s {
            let grand = self.parent[self.parent[s as usize] as usize];
            self.parent[s as usize] = grand;
            s = grand;
        }
        s
    }

    /// The root of `s`'s feature without compressing paths (for `&self` queries).
    #[inline]
    pub(crate) fn root(&self, mut s: u32) -> u32 {
        while self.parent[s as usize] != s {
            s = self.parent[s as usize];
        }
        s
    }

    /// Whether `s` is its feature's root (where the feature's totals are kept).
    #[inline]
    pub(crate) fn is_root(&self, s: u32) -> bool {
        self.parent[s as usize] == s
    }

    /// Joins two features; returns the new root and whether they were separate.
    pub(crate) fn union(&mut self, a: u32, b: u32) -> (u32, bool) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return (ra, false);
        }
        let (big, small) = if self.size[ra as usize] >= self.size[rb as usize] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let (b, s) = (big as usize, small as usize);
        self.parent[s] = big;
        self.size[b] += self.size[s];
        self.next.swap(b, s);
        self.open[b] += self.open[s];
        self.coats_of_arms[b] += self.coats_of_arms[s];
        let m = self.meeples[s];
        for (total, add) in self.meeples[b].iter_mut().zip(m) {
            *total += add;
        }
        (big, true)
    }

    pub(crate) fn meeple_total(&self, root: u32) -> u32 {
        self.meeples[root as usize]
            .iter()
            .map(|&m| u32::from(m))
            .sum()
    }

    /// Every segment of the feature `s` belongs to, starting with `s`.
    pub(crate) fn members(&self, s: u32) -> Vec<u32> {
        // Sized from the root's count up front: growing from one element reallocated several
        // times per scored feature (fields span hundreds of segments).
        let mut out = Vec::with_capacity(self.size[self.root(s) as usize] as usize);
        out.extend(self.member_iter(s));
        out
    }

    /// The same segments in the same order as `members`, without allocating.
    pub(crate) fn member_iter(&self, s: u32) -> impl Iterator<Item = u32> + '_ {
        let mut cur = Some(s);
        std::iter::from_fn(move || {
            let here = cur?;
            let next = self.next[here as usize];
            cur = (next != s).then_some(next);
            Some(here)
        })
    }
}
