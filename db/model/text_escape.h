// Escaping for every output format, in one place: every printer (terminal, Markdown, CSV, XML/HTML, error
// lines) goes through these, so a module or kernel name from a crafted trace cannot inject a heading, an
// image, a formula, a terminal escape sequence or an invalid XML character.
//
// Control characters (C0 except where a format keeps them, DEL, C1) and bytes that are not valid UTF-8 are
// shown as visible text (`\x1b`, `\u0085`), never passed through and never silently dropped.
#pragma once

#include <string>
#include <string_view>

namespace flopscope {

// For a terminal or a log. keep_layout keeps '\n' and '\t' (whole reports); without it the result is one
// line (error messages, gate messages).
std::string terminal_safe(std::string_view s, bool keep_layout = true);

// Inline Markdown text: Markdown and HTML punctuation backslash-escaped, newlines and controls made visible.
std::string markdown_escape(std::string_view s);

// A complete Markdown code span (fences included) showing `s` literally: the fence is longer than any run of
// backticks inside, newlines become spaces. in_table escapes '|', which would split a GFM table cell.
std::string markdown_code(std::string_view s, bool in_table);

// XML 1.0 text or attribute value: & < > " ' escaped, characters XML 1.0 forbids made visible.
std::string xml_escape(std::string_view s);

// HTML text or attribute value (the same rules as XML).
std::string html_escape(std::string_view s);

// One CSV field: controls, bidi overrides and invalid UTF-8 made visible as terminal_safe(s, false) shows
// them (a file gets what stdout gets), then RFC 4180 quoting. A field that a spreadsheet would run as a
// formula (starting with = + - @ tab or CR) is prefixed with a single quote.
std::string csv_field(std::string_view s);

// A label value of the Prometheus text exposition format: \\ \" \n as the format escapes them; other
// controls, bidi overrides and invalid UTF-8 made visible as terminal_safe() shows them.
std::string prometheus_label_value(std::string_view s);

// A JSON string, quoted, appended to `out`: quotes, backslashes and control characters escaped (\n \t \r,
// else \u00XX); bytes >= 0x80 pass through (UTF-8). Runs of plain characters are copied whole.
void append_json_string(std::string& out, std::string_view s);

// `text` with every password it holds replaced by ***, for a message that shows a database address: the
// password of a URL's user (scheme://user:PASSWORD@host, a `scheme:/` typo or no scheme at all included),
// `password=VALUE` in a URL query or in libpq's keyword form (quoted or not, any case), and every literal
// occurrence in `text` of a password found that way in `secrets_from` (a driver's message that echoes
// part of the address).
std::string redact_passwords(std::string_view text, std::string_view secrets_from = {});

}  // namespace flopscope
