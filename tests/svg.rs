//! `--format svg`: the odds drawn. Each chart is parsed as XML and its bars, labels and
//! percentages counted against what the dice give; one small chart is a snapshot; each
//! is rendered by `rsvg-convert` when it is installed (in CI it must be).

mod common;

use common::{repo, stderr, stdout, umpire, Scratch};
use roxmltree::{Document, Node};

/// `umpire ARGS` as a user runs it: its SVG on stdout, checked to have ended well.
fn svg(args: &[&str]) -> String {
    let o = umpire(args);
    assert!(o.status.success(), "umpire {args:?} failed: {}", stderr(&o));
    stdout(&o)
}

/// Elements of a class (`bar`, `pct`, `label`, ...), in document order.
fn class<'a, 'i>(doc: &'a Document<'i>, name: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|x| x == name))
        })
        .collect()
}

/// The words of an element (its text and its `tspan`s').
fn words(n: &Node<'_, '_>) -> String {
    n.descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect::<Vec<_>>()
        .join(" ")
}

fn texts(doc: &Document<'_>, name: &str) -> Vec<String> {
    class(doc, name).iter().map(words).collect()
}

/// The tooltip of an element's group (the `<title>` its `<g>` holds).
fn tooltip(n: &Node<'_, '_>) -> String {
    n.parent()
        .and_then(|g| g.children().find(|c| c.has_tag_name("title")))
        .map(|t| words(&t))
        .unwrap_or_default()
}

/// What every chart is: an `<svg role="img">` whose first element is its `<title>`, no
/// scripts, no style sheets, nothing fetched from elsewhere.
fn well_formed(text: &str) -> Document<'_> {
    let doc = Document::parse(text).expect("the chart parses as XML");
    let root = doc.root_element();
    assert!(root.has_tag_name("svg"));
    assert_eq!(root.attribute("role"), Some("img"));
    let first = root.children().find(|c| c.is_element()).expect("a child");
    assert!(first.has_tag_name("title"), "the title comes first");
    for n in doc.descendants() {
        assert!(
            !n.has_tag_name("script") && !n.has_tag_name("style") && !n.has_tag_name("image"),
            "no scripts, CSS or images: {n:?}"
        );
        for a in n.attributes() {
            assert!(
                !a.value().contains("http") || a.name() == "xmlns",
                "nothing fetched: {a:?}"
            );
        }
    }
    doc
}

fn title(doc: &Document<'_>) -> String {
    let root = doc.root_element();
    let t = root
        .children()
        .find(|c| c.has_tag_name("title"))
        .expect("a title");
    words(&t)
}

#[test]
fn two_dice_are_eleven_columns_with_their_exact_chances() {
    let text = svg(&["prob", "kriegspiel", "2d6", "--format", "svg"]);
    let doc = well_formed(&text);
    let t = title(&doc);
    assert!(
        t.starts_with("2d6: exact, over ") && t.ends_with(" cases"),
        "{t}"
    );
    // 2d6 gives 2 to 12: eleven values, each a column with its percentage and value.
    assert_eq!(class(&doc, "bar").len(), 11);
    let pcts = texts(&doc, "pct");
    assert_eq!(pcts.len(), 11);
    let values = texts(&doc, "value");
    let want: Vec<String> = (2..=12).map(|v| v.to_string()).collect();
    assert_eq!(values, want);
    // Ways to roll 2..12 of 36: 1 2 3 4 5 6 5 4 3 2 1. Only 7 has 6 of 36 = 16.67%;
    // 2 and 12 have 1 of 36 = 2.78%; 6 and 8 have 5 of 36 = 13.89%.
    assert_eq!(
        pcts,
        [
            "2.78%", "5.56%", "8.33%", "11.11%", "13.89%", "16.67%", "13.89%", "11.11%", "8.33%",
            "5.56%", "2.78%"
        ]
    );
    assert_eq!(pcts.iter().filter(|p| *p == "16.67%").count(), 1);
    // Each column's tooltip has its exact fraction: 7 is 6/36 = 1/6.
    let bars = class(&doc, "bar");
    assert_eq!(tooltip(&bars[5]), "7: 1/6 = 16.67%");
    assert_eq!(tooltip(&bars[0]), "2: 1/36 = 2.78%");
    // "At least" is a line, and the mean (7, by symmetry) is in the legend.
    assert_eq!(class(&doc, "at-least").len(), 1);
    assert_eq!(class(&doc, "mean").len(), 1);
    assert!(text.contains(">mean 7<"), "{text}");
    // At least 8: 15 of 36 ways (8..12: 5+4+3+2+1) = 5/12.
    assert!(text.contains("at least 8: 5/12 = 41.67%"), "{text}");
}

#[test]
fn a_wide_sum_keeps_every_value() {
    let text = svg(&["prob", "kriegspiel", "20d6", "--format", "svg"]);
    let doc = well_formed(&text);
    // 20d6 gives 20 to 120: 101 values, each a column (the text lists the 60 likeliest).
    assert_eq!(class(&doc, "bar").len(), 101);
    // Labels under the columns at a step: 20, 30, ..., 120 at least, never all 101.
    let values = texts(&doc, "value");
    assert!(
        values.len() < 101 && values.contains(&"70".to_string()),
        "{values:?}"
    );
    // Chances that round to 0.00% are left to the tooltips (20 and 120 are 1/6^20).
    let pcts = texts(&doc, "pct");
    assert!(!pcts.contains(&"0.00%".to_string()));
    assert!(pcts.len() < 101);
    assert!(
        text.contains("mean 70"),
        "the mean of 20d6 is 20 × 3.5 = 70"
    );
}

#[test]
fn a_table_outcome_is_a_bar_per_result_in_the_rulebooks_words() {
    let state = repo("examples/states/furious_reason_brigade.toml");
    let text = svg(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        &state,
        "--format",
        "svg",
    ]);
    let doc = well_formed(&text);
    // The 2nd Foot (line, DRM +1 in this state) on a d10: the §9 example's odds,
    // 3/10, 1/5, 1/5, 1/5, 1/10.
    assert_eq!(
        texts(&doc, "label"),
        ["Well Handled", "Tardy", "Hold", "Disengage", "Retire"]
    );
    assert_eq!(
        texts(&doc, "pct"),
        ["30.00%", "20.00%", "20.00%", "20.00%", "10.00%"]
    );
    let bars = class(&doc, "bar");
    assert_eq!(bars.len(), 5);
    assert_eq!(tooltip(&bars[0]), "Well Handled: 3/10 = 30.00%");
    // Bars are scaled to the likeliest: 20% is two thirds of 30%'s length.
    let len = |n: &Node<'_, '_>| {
        n.attribute("width")
            .and_then(|w| w.parse::<f64>().ok())
            .expect("a width")
    };
    assert!((len(&bars[1]) / len(&bars[0]) - 2.0 / 3.0).abs() < 0.01);
    // The count of cases is the engine's work, not the rules' odds: read as N.
    let mut shown = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("exact, over ") {
        let (before, after) = rest.split_at(at + "exact, over ".len());
        shown.push_str(before);
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        shown.push('N');
        rest = &after[digits..];
    }
    shown.push_str(rest);
    insta::assert_snapshot!("manoeuvre", shown);
}

#[test]
fn sampled_odds_say_how_and_carry_whiskers() {
    let text = svg(&[
        "prob",
        "kriegspiel",
        "d6",
        "--samples",
        "600",
        "--seed",
        "5",
        "--format",
        "svg",
    ]);
    let doc = well_formed(&text);
    assert_eq!(
        title(&doc),
        "d6: sampled: 600 adjudications with seed 5; ± one standard error"
    );
    // Six faces, each sampled: six columns, each with a standard error by its percentage.
    assert_eq!(class(&doc, "bar").len(), 6);
    let pcts = texts(&doc, "pct");
    assert_eq!(pcts.len(), 6);
    assert!(pcts.iter().all(|p| p.contains(" ± ")), "{pcts:?}");
    // A whisker per column: a path after each bar inside its group.
    for b in class(&doc, "bar") {
        let g = b.parent().expect("its group");
        assert!(g.children().any(|c| c.has_tag_name("path")), "a whisker");
    }
    // Deterministic: the same seed draws the same bytes.
    let again = svg(&[
        "prob",
        "kriegspiel",
        "d6",
        "--samples",
        "600",
        "--seed",
        "5",
        "--format",
        "svg",
    ]);
    assert_eq!(text, again);
}

#[test]
fn refusals_and_errors_are_hatched_with_their_words() {
    let small = repo("tests/prob/small.rules");
    // d6: a 6 is refused (1/6); else r + d3, 2..8 with chances 1,2,3,3,3,2,1 of 18.
    let text = svg(&["prob", &small, "sometimes_refused()", "--format", "svg"]);
    let doc = well_formed(&text);
    let bars = class(&doc, "bar");
    assert_eq!(bars.len(), 8, "seven values and the refusal");
    let refused: Vec<_> = bars
        .iter()
        .filter(|b| b.attribute("fill") == Some("url(#refused)"))
        .collect();
    assert_eq!(refused.len(), 1);
    assert_eq!(tooltip(refused[0]), "refused: the gun bursts: 1/6 = 16.67%");
    assert!(text.contains("(of the cases that give a value)"));
    // bonus(d8): its table has rows for 1 to 6, so 7 and 8 find none: two errors of 1/8.
    let text = svg(&["prob", &small, "bonus(d8)", "--format", "svg"]);
    let doc = well_formed(&text);
    let errors: Vec<String> = class(&doc, "bar")
        .iter()
        .filter(|b| b.attribute("fill") == Some("url(#error)"))
        .map(tooltip)
        .collect();
    assert_eq!(
        errors,
        [
            "error: no row of table `bonus` matches roll: 7: 1/8 = 12.50%",
            "error: no row of table `bonus` matches roll: 8: 1/8 = 12.50%"
        ]
    );
}

#[test]
fn a_sweep_of_results_is_a_stacked_bar_per_value() {
    let state = repo("examples/states/furious_reason_brigade.toml");
    let text = svg(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        &state,
        "--sweep",
        "brigade.second_foot.grade=militia,line,grenadier,guard",
        "--format",
        "svg",
    ]);
    let doc = well_formed(&text);
    assert_eq!(class(&doc, "row").len(), 4);
    assert_eq!(
        texts(&doc, "row-label"),
        ["militia", "line", "grenadier", "guard"]
    );
    // Each grade is one better on the d10 than the one before: militia has all five
    // results at 2/10 each, line drops to 1/10 Retire, grenadier and guard never Retire
    // (5 + 5 + 4 + 4 segments).
    assert_eq!(class(&doc, "seg").len(), 18);
    let first: Vec<String> = class(&doc, "row")[0]
        .descendants()
        .filter(|n| n.attribute("class") == Some("pct"))
        .map(|n| words(&n))
        .collect();
    assert_eq!(first, ["20.00%"; 5]);
    // The guard: Well Handled on 5 of 10.
    assert!(text.contains("brigade.second_foot.grade = guard: Well Handled 1/2 = 50.00%"));
}

#[test]
fn a_sweep_of_numbers_is_a_chart_per_value_on_one_scale() {
    let text = svg(&[
        "prob",
        "kriegspiel",
        "d6 + m",
        "--sweep",
        "m=0..2",
        "--format",
        "svg",
    ]);
    let doc = well_formed(&text);
    assert_eq!(class(&doc, "row").len(), 3);
    // Six faces each, 1/6 apiece: 18 columns at 16.67%.
    assert_eq!(class(&doc, "bar").len(), 18);
    assert_eq!(texts(&doc, "pct"), vec!["16.67%"; 18]);
    // One axis: the columns of m = 0 (1..6) and m = 2 (3..8) for the same value (3)
    // stand at the same place.
    let at = |row: usize, v: &str| -> String {
        let r = class(&doc, "row")[row];
        let n = r
            .descendants()
            .find(|n| n.attribute("class") == Some("value") && words(n) == v)
            .expect("the value's label");
        n.attribute("x").expect("its place").to_string()
    };
    assert_eq!(at(0, "3"), at(2, "3"));
    // d6 + m has mean 3.5 + m.
    assert!(text.contains("mean 5 1/2 (≈ 5.50)"), "{text}");
}

#[test]
fn a_diff_draws_old_and_new_side_by_side() {
    let text = svg(&[
        "diff",
        "furious_reason",
        &repo("examples/house/furious_reason_veterans.rules"),
        "--scenario",
        &repo("examples/house/furious_reason_diff.toml"),
        "--format",
        "svg",
    ]);
    let doc = well_formed(&text);
    // Three adjudications in the scenario.
    assert_eq!(class(&doc, "adjudication").len(), 3);
    // The grenadiers gain +1 as veterans: Well Handled 7/10 → 8/10, Hold 1/10 → none.
    assert_eq!(texts(&doc, "change")[..3], ["+10.00%", "same", "-10.00%"]);
    // An outcome is two bars when both rulesets give it, one when only one does:
    // 3 + 2 + 1 in the first panel, 5 × 2 in the second (unchanged), 1 + 1 in the third.
    assert_eq!(class(&doc, "old").len(), 3 + 5 + 1);
    assert_eq!(class(&doc, "new").len(), 2 + 5 + 1);
    assert!(text.contains("the same under both"));
    // A certain result both ways: 8" before, 9" after.
    assert!(text.contains("8&quot;: old 1 = 100.00%, new -"), "{text}");
}

#[test]
fn svg_is_refused_where_there_are_no_odds() {
    // eval and run have no odds to draw: clap refuses the value, a usage error.
    for args in [
        &["eval", "kriegspiel", "2d6", "--format", "svg"][..],
        &[
            "run",
            &repo("examples/house/furious_reason_diff.toml"),
            "--format",
            "svg",
        ],
    ] {
        let o = umpire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("invalid value 'svg' for '--format <FORMAT>'"),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
    // diff draws the odds of a scenario: without one there is nothing to draw.
    let o = umpire(&[
        "diff",
        "furious_reason",
        "furious_reason",
        "--format",
        "svg",
    ]);
    // (As `--format csv` without one: an error of the command, exit 1.)
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--format svg needs --scenario FILE"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    // The other formats still work.
    for f in ["text", "json"] {
        let o = umpire(&["prob", "kriegspiel", "d6", "--format", f]);
        assert!(o.status.success());
        let o = umpire(&["eval", "kriegspiel", "3", "--format", f]);
        assert!(o.status.success());
    }
}

#[test]
fn each_chart_renders_with_rsvg() {
    let found = std::process::Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("rsvg-convert is missing in CI: install librsvg2-bin (.ci/run does)");
        }
        eprintln!("notice: rsvg-convert is not installed: the charts were not rendered (apt-get install librsvg2-bin)");
        return;
    }
    let state = repo("examples/states/furious_reason_brigade.toml");
    let veterans = repo("examples/house/furious_reason_veterans.rules");
    let scenario = repo("examples/house/furious_reason_diff.toml");
    let charts: Vec<(&str, Vec<&str>)> = vec![
        ("2d6", vec!["prob", "kriegspiel", "2d6"]),
        ("20d6", vec!["prob", "kriegspiel", "20d6"]),
        (
            "manoeuvre",
            vec![
                "prob",
                "furious_reason",
                "manoeuvre(brigade.second_foot)",
                "--state",
                &state,
            ],
        ),
        (
            "sweep",
            vec![
                "prob",
                "furious_reason",
                "manoeuvre_table(good_order, D10 + m)",
                "--sweep",
                "m=-3..3",
            ],
        ),
        (
            "diff",
            vec!["diff", "furious_reason", &veterans, "--scenario", &scenario],
        ),
    ];
    let dir = Scratch::new("rsvg");
    for (name, mut args) in charts {
        args.extend(["--format", "svg"]);
        let file = dir.path(&format!("{name}.svg"));
        std::fs::write(&file, svg(&args)).expect("the chart written");
        let png = dir.path(&format!("{name}.png"));
        let o = std::process::Command::new("rsvg-convert")
            .args([&file, "-o", &png])
            .output()
            .expect("rsvg-convert runs");
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let bytes = std::fs::read(&png).expect("the PNG read");
        assert!(bytes.starts_with(b"\x89PNG"), "{name}: a PNG");
    }
}
