//! `carc export --format html`: the interactive page by default, today's static page with
//! `--static` (byte for byte what `carc_report::html` writes) or with `--boards`.

mod common;

use std::collections::BTreeMap;

use carc_report::{html, interactive_html, Extras, HtmlOptions};
use common::{carc, logs_dir, stderr, stdout};

fn sample() -> String {
    logs_dir()
        .join("short-game-rulings.jsonl")
        .to_string_lossy()
        .into_owned()
}

fn sample_timeline() -> carc_replay::Timeline {
    let text = std::fs::read(sample()).unwrap();
    carc_replay::fold(carc_events::read_log(&text[..]).unwrap(), &[])
}

#[test]
fn the_static_page_is_the_report_of_before_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    // Given the sample game (no annotations, no variations beside it)
    let s = sample();
    // When it is exported with --static
    let o = carc(&["export", &s, "--format", "html", "--static"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // Then the page is the static report, byte for byte (its own golden test holds its bytes)
    let want = html(
        &sample_timeline(),
        &BTreeMap::new(),
        &HtmlOptions::default(),
    );
    assert!(o.stdout == want.as_bytes(), "{}", stdout(&o));
    assert!(!stdout(&o).contains("<script"));
    // And --boards chooses pictures of the static page, so it gives the static page too
    let o = carc(
        &["export", &s, "--format", "html", "--boards", "every"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout == want.as_bytes());
}

#[test]
fn the_default_page_is_the_interactive_one_and_static_is_for_html_only() {
    let dir = tempfile::tempdir().unwrap();
    let s = sample();
    let o = carc(&["export", &s, "--format", "html"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let want = interactive_html(&sample_timeline(), &BTreeMap::new(), &Extras::default());
    assert!(o.stdout == want.as_bytes());
    assert!(stdout(&o).contains("<script type=\"application/json\" id=\"carc-data\">"));
    // --static with another format is refused before anything is written
    let o = carc(&["export", &s, "--format", "md", "--static"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--static chooses the page of --format html only"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}
