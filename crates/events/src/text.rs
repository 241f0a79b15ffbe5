//! Text from a log that people read: player names and annotation texts. Two things about it
//! are decided here, so that every reader and every surface agrees:
//!
//! - **How long it may be.** A name is shown on every line that mentions its player (a report
//!   repeats it thousands of times), so a 4 MiB name once made an 898 MB web page. Names are
//!   capped at [`MAX_NAME_CHARS`] and annotation texts at [`MAX_ANNOTATION_CHARS`], checked by
//!   every reader (our log and bundles, annotation files and streams, JCloisterZone and Board
//!   Game Arena games, `carc record new`, `carc annotate`) with an error that says the cap.
//! - **Which invisible characters are hazards.** Bidi embeddings, overrides, isolates and
//!   marks reorder the text around them (one name could reverse a whole line of a report), and
//!   U+2028/U+2029 break a line where a terminal or a script does not expect it.
//!   [`is_hidden_format`] names them; each surface makes them visible as it makes control
//!   characters visible (`docs/cli.md`, "Text from a log").

/// The most characters a player name may have: room for any real name (Board Game Arena's
/// are at most 20, JCloisterZone's are typed by hand) many times over, and small enough that a
/// report naming a player on every line stays a small multiple of its game's size.
pub const MAX_NAME_CHARS: usize = 200;

/// The most characters an annotation text may have: a long comment (about four pages of
/// prose), far under the log's 1 MiB line limit, so that the reports that quote it stay small.
pub const MAX_ANNOTATION_CHARS: usize = 10_000;

/// Whether `c` is an invisible character that changes how the text around it is ordered or
/// broken: the bidi controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates,
/// U+200E/U+200F and U+061C marks) and the line and paragraph separators U+2028/U+2029.
pub fn is_hidden_format(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Whether a surface must show `c` as an escape: a control character or a hidden format
/// character ([`is_hidden_format`]).
pub fn is_hazard(c: char) -> bool {
    c.is_control() || is_hidden_format(c)
}

/// `Err` (a sentence without the field's name) when `name` is longer than
/// [`MAX_NAME_CHARS`].
pub fn check_name_length(name: &str) -> Result<(), String> {
    check_length(name, MAX_NAME_CHARS)
}

/// `Err` (a sentence) when an annotation text is longer than [`MAX_ANNOTATION_CHARS`].
pub fn check_annotation_length(text: &str) -> Result<(), String> {
    check_length(text, MAX_ANNOTATION_CHARS)
}

fn check_length(text: &str, max: usize) -> Result<(), String> {
    // Counted no further than the cap plus one: a huge text costs no more than a short one
    if text.chars().nth(max).is_none() {
        return Ok(());
    }
    Err(format!(
        "it is {} characters long, more than the {max} allowed",
        text.chars().count()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hidden_format_characters_are_the_bidi_controls_and_the_separators() {
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}', '\u{2028}', '\u{2029}',
        ] {
            assert!(is_hidden_format(c) && is_hazard(c), "{:04x}", c as u32);
        }
        for c in ['a', 'é', 'ש', 'ع', '\u{200D}', ' '] {
            assert!(!is_hidden_format(c), "{:04x}", c as u32);
        }
        assert!(is_hazard('\u{1b}') && !is_hidden_format('\u{1b}'));
    }

    #[test]
    fn lengths_are_capped_in_characters() {
        assert!(check_name_length(&"é".repeat(MAX_NAME_CHARS)).is_ok());
        let e = check_name_length(&"é".repeat(MAX_NAME_CHARS + 1)).unwrap_err();
        assert_eq!(e, "it is 201 characters long, more than the 200 allowed");
        assert!(check_annotation_length(&"x".repeat(MAX_ANNOTATION_CHARS)).is_ok());
        assert!(check_annotation_length(&"x".repeat(MAX_ANNOTATION_CHARS + 1)).is_err());
    }
}
