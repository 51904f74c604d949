//! A character in words, for an error that stops at it: an en dash pasted from a rulebook
//! PDF looks like `-`, a no-break or zero-width space looks like nothing at all, so the
//! message names it by its Unicode name (`U+2013 EN DASH`) and says what to type instead.

use unicode_width::UnicodeWidthChar;

/// Whether `c` shows nothing a reader can see: a space other than the plain one, a
/// control or format character (zero-width space, joiners, direction marks, a byte-order
/// mark), a variation selector.
pub fn is_invisible(c: char) -> bool {
    if c == ' ' {
        return false;
    }
    c.is_whitespace()
        || c.is_control()
        || c.width().is_none_or(|w| w == 0)
        || matches!(
            c,
            '\u{AD}' | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
        )
}

/// `U+2013 EN DASH`: the code point and its Unicode name (or only the code point, for a
/// character Unicode gives no name, such as a control character or a private one).
pub fn unicode_name(c: char) -> String {
    let code = format!("U+{:04X}", u32::from(c));
    match unicode_names2::name(c) {
        Some(name) => format!("{code} {name}"),
        None => code,
    }
}

/// A character named for a message: `` `–` (U+2013 EN DASH) `` for one that can be
/// seen, `an invisible U+200B ZERO WIDTH SPACE` for one that cannot, and only `` `-` ``
/// for plain ASCII.
pub fn describe(c: char) -> String {
    match c {
        '\n' => "the end of the line".to_string(),
        '\t' => "a tab".to_string(),
        ' ' => "a space".to_string(),
        c if c.is_ascii_graphic() => format!("`{c}`"),
        c if c.is_control() => format!("an invisible control character {}", unicode_name(c)),
        c if is_invisible(c) => format!("an invisible {}", unicode_name(c)),
        c => format!("`{c}` ({})", unicode_name(c)),
    }
}

/// Characters drawn as one (`👍🏽`, a letter with its accents) named for a message: as
/// [`describe`] for one character, else `` `👍🏽` (U+1F44D THUMBS UP SIGN, U+1F3FD …) ``
/// (the first four named).
pub fn describe_all(cluster: &str) -> String {
    let mut cs = cluster.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => describe(c),
        (None, _) => "nothing".to_string(),
        _ => {
            let mut names: Vec<String> = cluster.chars().take(4).map(unicode_name).collect();
            if cluster.chars().count() > 4 {
                names.push("…".to_string());
            }
            format!("`{cluster}` ({})", names.join(", "))
        }
    }
}

/// What to type instead of a character that looks like one the language reads (a
/// typographic dash, quote, space or sign), or of an invisible one; `None` for others.
pub fn instead(c: char) -> Option<String> {
    let plain = match c {
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => {
            return Some(format!(
                "{} looks like `-` but is another character: type the plain `-`",
                unicode_name(c)
            ))
        }
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{FF02}' => "\"",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{FF07}' => "'",
        '\u{FF0B}' => "+",
        '\u{2044}' | '\u{2215}' | '\u{FF0F}' => "/",
        '\u{FF1D}' => "=",
        '\u{FF1A}' => ":",
        '\u{FF0C}' => ",",
        c if c.is_whitespace() && c != ' ' && c != '\n' => {
            return Some(format!(
                "{} is not an ordinary space: type a plain space (or none) in its place",
                unicode_name(c)
            ))
        }
        c if is_invisible(c) => {
            return Some(format!(
                "{} cannot be seen but is there: delete the character at the caret",
                unicode_name(c)
            ))
        }
        _ => return None,
    };
    Some(format!(
        "{} looks like `{plain}` but is another character: type the plain `{plain}`",
        unicode_name(c)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_named_by_their_unicode_names() {
        assert_eq!(describe('–'), "`–` (U+2013 EN DASH)");
        assert_eq!(describe('\u{200B}'), "an invisible U+200B ZERO WIDTH SPACE");
        assert_eq!(describe('\u{A0}'), "an invisible U+00A0 NO-BREAK SPACE");
        assert_eq!(describe('\u{2060}'), "an invisible U+2060 WORD JOINER");
        assert_eq!(describe('\u{AD}'), "an invisible U+00AD SOFT HYPHEN");
        assert_eq!(describe('\u{1}'), "an invisible control character U+0001");
        assert_eq!(describe('-'), "`-`");
        assert_eq!(
            describe('é'),
            "`é` (U+00E9 LATIN SMALL LETTER E WITH ACUTE)"
        );
        assert!(instead('–').is_some_and(|h| h.contains("plain `-`")));
        assert!(instead('\u{201C}').is_some_and(|h| h.contains("plain `\"`")));
        assert!(instead('\u{202F}').is_some_and(|h| h.contains("plain space")));
        assert!(instead('\u{200B}').is_some_and(|h| h.contains("delete")));
        assert_eq!(instead('é'), None);
    }
}
