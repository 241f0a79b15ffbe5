//! Players named in messages. The rules crate words its rulings and notes with seat numbers
//! ("it is seat 0's turn, not seat 1's"), since it knows no names; the CLI, which has the
//! log's header, puts the players' names in their place before showing them.

use carc_events::Header;

/// `text` with every "seat N" of a seat the header has replaced by that player's name.
/// A "seat" not followed by a seat number of this game is left as it is.
pub fn name_seats(text: &str, header: &Header) -> String {
    const WORD: &str = "seat ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = rest.find(WORD) {
        let (before, from) = rest.split_at(found);
        out.push_str(before);
        let after = &from[WORD.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        // "seat" must be a word of its own, not the end of e.g. "deseat".
        let starts_word = !before.ends_with(|c: char| c.is_alphanumeric());
        let player = after[..digits]
            .parse::<usize>()
            .ok()
            .filter(|_| starts_word && digits > 0)
            .and_then(|seat| header.players.get(seat));
        match player {
            Some(p) => {
                out.push_str(&p.name);
                rest = &after[digits..];
            }
            None => {
                out.push_str(WORD);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoded from a header line rather than built field by field, so that a new optional
    /// header field does not break this test.
    fn header() -> Header {
        let line = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Brandt","color":"blue"}],"rules":{"expansions":[],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base"]}"#;
        carc_events::read_log(line.as_bytes()).unwrap().header
    }

    #[test]
    fn seats_become_names_and_other_text_stays() {
        let h = header();
        assert_eq!(
            name_seats("it is seat 0's turn, not seat 1's", &h),
            "it is Ada's turn, not Brandt's"
        );
        assert_eq!(name_seats("seat 1 plays next", &h), "Brandt plays next");
        // No such seat, no number, part of a word: unchanged.
        assert_eq!(name_seats("seat 7 and seat x", &h), "seat 7 and seat x");
        assert_eq!(name_seats("the deseat 0", &h), "the deseat 0");
        assert_eq!(name_seats("seat 10", &h), "seat 10");
    }
}
