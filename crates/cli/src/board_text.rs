//! The board as text: each square is 5 characters by 3 lines. Edges show their terrain
//! (`C` city, `R` road, `.` field), the centre shows the tile id and, if a meeple stands on
//! the tile, its seat number. North is up.

use carc_rules::{Game, Pos, Side, Terrain};

pub fn render(game: &Game) -> String {
    let placed = game.placed();
    if placed.is_empty() {
        return "(no tile on the board yet)\n".to_string();
    }
    let min_x = placed.iter().map(|p| p.at.x).min().unwrap_or(0);
    let max_x = placed.iter().map(|p| p.at.x).max().unwrap_or(0);
    let min_y = placed.iter().map(|p| p.at.y).min().unwrap_or(0);
    let max_y = placed.iter().map(|p| p.at.y).max().unwrap_or(0);
    let meeple_at = |at: Pos| game.meeples().find(|m| m.1 == at).map(|m| m.0);
    let mut out = String::new();
    out.push_str("     ");
    for x in min_x..=max_x {
        out.push_str(&format!("{x:^5}"));
    }
    out.push('\n');
    for y in (min_y..=max_y).rev() {
        let mut rows = [String::new(), String::new(), String::new()];
        rows[0].push_str("     ");
        rows[1].push_str(&format!("{y:>4} "));
        rows[2].push_str("     ");
        for x in min_x..=max_x {
            let at = Pos::new(x, y);
            match game.tile_at(at) {
                None => {
                    rows[0].push_str("     ");
                    rows[1].push_str("     ");
                    rows[2].push_str("     ");
                }
                Some(p) => {
                    let tile = game.tiles().get(p.tile);
                    let edge = |s: Side| match tile.edge(p.rotation, s) {
                        Terrain::City => 'C',
                        Terrain::Road => 'R',
                        Terrain::Field => '.',
                        Terrain::River => '~',
                    };
                    let id = tile.id.chars().next().unwrap_or('?');
                    let m = meeple_at(at).map_or(' ', |seat| char::from(b'0' + seat));
                    rows[0].push_str(&format!("  {}  ", edge(Side::N)));
                    rows[1].push_str(&format!("{} {id}{m}{}", edge(Side::W), edge(Side::E)));
                    rows[2].push_str(&format!("  {}  ", edge(Side::S)));
                }
            }
        }
        for r in rows {
            out.push_str(r.trim_end());
            out.push('\n');
        }
    }
    out
}
